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

    func run() -> [Row] {
        let workload = Workload.make(records)
        let raw = JournalBenchmark.rawStream(workload)
        let ceiling = JournalBenchmark.ceilingRatio(workload)
        var lengths: [Int] = []
        var previous = workload.first?.timestamp ?? .init(microsecondsSince1970: 0)
        for record in workload {
            lengths.append(record.rawEncoding(previousTime: previous).count)
            previous = record.timestamp
        }
        return groupSizes.map { group in
            let stopwatch = Stopwatch()
            let compressed = compress(raw, lengths: lengths, recordsPerBlock: group)
            let seconds = stopwatch.seconds
            let ratio = Double(raw.count) / Double(compressed)
            return Row(recordsPerBlock: group, ratio: ratio, shareOfCeiling: ratio / ceiling,
                       microsecondsPerRecord: seconds * 1e6 / Double(records))
        }
    }

    /// Compresses `raw` as the journal's frames would hold it, one block per `recordsPerBlock`.
    private func compress(_ raw: [UInt8], lengths: [Int], recordsPerBlock: Int) -> Int {
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
        raw.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                var offset = 0
                var frameStart = 0
                var open = false
                var index = 0
                while index < lengths.count {
                    if !open {
                        total += LZ4F_compressBegin(context, out.baseAddress! + total, out.count - total, &preferences)
                        open = true
                        frameStart = offset
                    }
                    let start = offset
                    for _ in 0..<recordsPerBlock where index < lengths.count {
                        offset += lengths[index]
                        index += 1
                    }
                    total += LZ4F_compressUpdate(context, out.baseAddress! + total, out.count - total,
                                                 input.baseAddress! + start, offset - start, &options)
                    if offset - frameStart >= 64 << 10 || index == lengths.count {
                        total += LZ4F_compressEnd(context, out.baseAddress! + total, out.count - total, &options)
                        open = false
                    }
                }
            }
        }
        return total
    }
}
