import CLZ4

/// `bench blocks`: how the number of records per LZ4 block changes the compression ratio and
/// the cost, with liblz4's frame API directly (linked blocks, block checksums, a new frame every
/// 64 KiB): the measurement behind one block per commit group.
struct BlockGranularityBenchmark {
    var records = 200_000
    var groupSizes = [1, 4, 16, 64]

    struct Row {
        var recordsPerBlock: Int
        var ratio: Double
        var shareOfCeiling: Double
        var microsecondsPerRecord: Double
    }

    /// Throws ``BenchmarkFailure`` when a compression call fails or the frames do not
    /// decompress to the very bytes compressed (checked after the timing).
    func run() throws -> [Row] {
        let workload = Workload.make(records)
        let raw = JournalBenchmark.rawStream(workload)
        let ceiling = JournalBenchmark.ceilingRatio(workload)
        var lengths: [Int] = []
        var previous = workload.first?.timestamp ?? .init(microsecondsSince1970: 0)
        for record in workload {
            lengths.append(record.rawEncoding(previousTime: previous).count)
            previous = record.timestamp
        }
        return try groupSizes.map { group in
            let stopwatch = Stopwatch()
            let frames = try compress(raw, lengths: lengths, recordsPerBlock: group)
            let seconds = stopwatch.seconds
            guard try Self.decompress(frames, expecting: raw.count) == raw else {
                throw BenchmarkFailure(description: "blocks of \(group): the frames do not decompress to the records compressed: no ratio reported")
            }
            let ratio = Double(raw.count) / Double(frames.count)
            return Row(recordsPerBlock: group, ratio: ratio, shareOfCeiling: ratio / ceiling,
                       microsecondsPerRecord: seconds * 1e6 / Double(records))
        }
    }

    /// Compresses `raw` as the journal's frames would hold it, one block per `recordsPerBlock`;
    /// returns the frames.
    private func compress(_ raw: [UInt8], lengths: [Int], recordsPerBlock: Int) throws -> [UInt8] {
        var context: OpaquePointer?
        LZ4F_createCompressionContext(&context, UInt32(LZ4F_VERSION))
        defer { LZ4F_freeCompressionContext(context) }
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockMode = LZ4F_blockLinked
        preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        preferences.frameInfo.blockSizeID = LZ4F_max4MB
        preferences.autoFlush = 1
        var options = LZ4F_compressOptions_t()
        options.stableSrc = 1
        var output = [UInt8](repeating: 0, count: raw.count * 2 + (1 << 20))
        var total = 0
        var failure: String?
        // Every LZ4F call returns a size or an error code; an error ends the run.
        func checked(_ result: Int, _ call: String) -> Int {
            if LZ4F_isError(result) != 0 {
                failure = failure ?? "\(call): \(String(cString: LZ4F_getErrorName(result)))"
                return 0
            }
            return result
        }
        raw.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                var offset = 0
                var frameStart = 0
                var open = false
                var index = 0
                while index < lengths.count {
                    if !open {
                        total += checked(LZ4F_compressBegin(context, out.baseAddress! + total, out.count - total, &preferences), "LZ4F_compressBegin")
                        open = true
                        frameStart = offset
                    }
                    let start = offset
                    for _ in 0..<recordsPerBlock where index < lengths.count {
                        offset += lengths[index]
                        index += 1
                    }
                    total += checked(LZ4F_compressUpdate(context, out.baseAddress! + total, out.count - total,
                                                         input.baseAddress! + start, offset - start, &options), "LZ4F_compressUpdate")
                    if offset - frameStart >= 64 << 10 || index == lengths.count {
                        total += checked(LZ4F_compressEnd(context, out.baseAddress! + total, out.count - total, &options), "LZ4F_compressEnd")
                        open = false
                    }
                }
            }
        }
        if let failure { throw BenchmarkFailure(description: "bench blocks: \(failure)") }
        return Array(output.prefix(total))
    }

    /// The bytes `frames` decompress to (at most `expecting` plus a little, to notice extra).
    private static func decompress(_ frames: [UInt8], expecting count: Int) throws -> [UInt8] {
        var context: OpaquePointer?
        LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))
        defer { LZ4F_freeDecompressionContext(context) }
        var output = [UInt8](repeating: 0, count: count + 1)
        var produced = 0
        var consumed = 0
        try frames.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { out in
                while consumed < input.count && produced < out.count {
                    var sourceSize = input.count - consumed
                    var destinationSize = out.count - produced
                    let hint = LZ4F_decompress(context, out.baseAddress! + produced, &destinationSize,
                                               input.baseAddress! + consumed, &sourceSize, nil)
                    if LZ4F_isError(hint) != 0 {
                        throw BenchmarkFailure(description: "bench blocks: LZ4F_decompress: \(String(cString: LZ4F_getErrorName(hint)))")
                    }
                    produced += destinationSize
                    consumed += sourceSize
                    if sourceSize == 0 && destinationSize == 0 { break }
                }
            }
        }
        return Array(output.prefix(produced))
    }
}
