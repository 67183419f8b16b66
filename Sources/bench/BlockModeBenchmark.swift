import CLZ4
import Foundation
import Journal

/// `bench lz4`: on a journal kept on disk, what independent blocks cost in size against linked
/// ones, block for block, and what this package's LZ4 in Swift (iOS's compressor and
/// decoder) costs in size and time against liblz4's.
///
/// It walks the segments' frames itself, decodes every block with liblz4, then compresses each
/// block's content again twice from the same commit groups: linked (which must give back the
/// stored blocks byte for byte: the walk read them right), each block alone, and linked by the
/// Swift compressor. The size cost is
/// the second against the first, with everything else of the files unchanged. With
/// `--records-per-block N` each frame's records are first cut into groups of N (each with its
/// block check), as an app whose calls come seconds apart commits them: one input and its
/// decisions a group. Times: every block
/// decoded by both decoders (median of the runs), checked against the content afterwards; and a
/// whole strict read of the journal through `JournalReader` with each decoder.
struct BlockModeBenchmark {
    var journal: String
    var runs = 5
    /// Regroup each frame's records into blocks of this many; nil keeps the journal's groups.
    var recordsPerBlock: Int?
    /// Only the strict reads, through this decoder (`--read-only`): what callgrind counts.
    var readOnly: LZ4Implementation?

    struct Report {
        var segments = 0
        var fileBytes = 0
        /// Block bytes as the segments hold them (size words, data, checksums).
        var storedBlockBytes = 0
        var recordsPerBlock: Int?
        var frames = 0
        var linkedFrames = 0
        var blocks = 0
        var records = 0
        /// Decompressed bytes of every block (records and block checks).
        var contentBytes = 0
        /// Block bytes (size word, data, checksum) as linked blocks.
        var linkedBlockBytes = 0
        /// The same as independent blocks.
        var independentBlockBytes = 0
        /// Linked blocks written by the Swift compressor (iOS's).
        var swiftLinkedBlockBytes = 0
        var compress: [(name: String, seconds: Double)] = []
        var blockContentMedian = 0
        var decode: [(name: String, seconds: Double)] = []
        var scan: [(name: String, seconds: Double)] = []

        var linkedFileBytes: Int { fileBytes - storedBlockBytes + linkedBlockBytes }
        var independentFileBytes: Int { fileBytes - storedBlockBytes + independentBlockBytes }
    }

    /// One block: its content's place in its frame, and its data as linked and as independent.
    private struct Block {
        var content: Range<Int>
        var linked: [UInt8]?
        var independent: [UInt8]?
        var swiftLinked: [UInt8]?
    }

    private struct Frame {
        var content: [UInt8] = []
        var blocks: [Block] = []
    }

    func run(log: (String) -> Void) throws -> Report {
        var report = Report()
        report.recordsPerBlock = recordsPerBlock
        if let readOnly {
            log("reading the journal through JournalReader, \(runs) runs")
            let name = readOnly == .swift ? "Swift" : "liblz4"
            (report.scan, report.records) = try scans([(name, readOnly)])
            return report
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".lz4") }.sorted()
        guard !names.isEmpty else { throw BenchmarkFailure(description: "\(journal) holds no segment") }
        var frames: [Frame] = []
        for name in names {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: journal + "/" + name)))
            report.segments += 1
            report.fileBytes += bytes.count
            let (found, linkedFrames, storedBlockBytes) = try Self.frames(of: bytes, name: name)
            frames += found
            report.linkedFrames += linkedFrames
            report.storedBlockBytes += storedBlockBytes
        }
        if let recordsPerBlock { frames = frames.map { Self.regroup($0, recordsPerBlock: recordsPerBlock) } }
        guard report.linkedFrames == frames.count else {
            throw BenchmarkFailure(description: "\(frames.count - report.linkedFrames) frames of \(journal) are independent already: give a journal written with linked blocks")
        }
        log("\(frames.count) frames; compressing their blocks again, linked and independent")
        var sizes: [Int] = []
        for index in frames.indices {
            try Self.recompress(&frames[index])
            for block in frames[index].blocks {
                report.blocks += 1
                report.contentBytes += block.content.count
                report.records += Self.records(in: frames[index].content[block.content]) - 1
                report.linkedBlockBytes += 8 + (block.linked?.count ?? block.content.count)
                report.independentBlockBytes += 8 + (block.independent?.count ?? block.content.count)
                report.swiftLinkedBlockBytes += 8 + (block.swiftLinked?.count ?? block.content.count)
                sizes.append(block.content.count)
            }
        }
        guard recordsPerBlock != nil || report.linkedBlockBytes == report.storedBlockBytes else {
            throw BenchmarkFailure(description: "compressing the blocks again gives \(report.linkedBlockBytes) bytes, the segments hold \(report.storedBlockBytes): the walk misread them")
        }
        report.frames = frames.count
        report.blockContentMedian = sizes.sorted()[sizes.count / 2]

        log("compressing every frame, linked, \(runs) runs each way")
        report.compress = try [("liblz4, linked", false), ("Swift, linked", true)].map { name, swift in
            var samples: [Double] = []
            for _ in 0..<runs { samples.append(try Self.compressAll(frames, swift: swift)) }
            return (name, percentile(samples, 0.5))
        }
        log("decoding every block, \(runs) runs each way")
        report.decode = try [("liblz4, linked", false, true), ("Swift, linked", true, true),
                             ("liblz4, independent", false, false), ("Swift, independent", true, false)].map { name, swift, linked in
            var samples: [Double] = []
            for _ in 0..<runs { samples.append(try Self.decodeAll(frames, swift: swift, linked: linked)) }
            return (name, percentile(samples, 0.5))
        }
        log("reading the journal through JournalReader, \(runs) runs each way")
        report.scan = try scans([("liblz4", .liblz4), ("Swift", .swift)]).times
        return report
    }

    /// The median time of ``runs`` strict reads through each decoder, and the records each read:
    /// every run of every decoder must read the same records, or its time is not reported.
    private func scans(_ decoders: [(name: String, decoding: LZ4Implementation)]) throws
        -> (times: [(name: String, seconds: Double)], records: Int) {
        var recordsRead: Int?
        let times = try decoders.map { name, decoding in
            var samples: [Double] = []
            for _ in 0..<runs {
                let (seconds, records) = try scan(decoding)
                guard recordsRead == nil || recordsRead == records else {
                    throw BenchmarkFailure(description: "\(name) read \(records) records, another run \(recordsRead!)")
                }
                recordsRead = records
                samples.append(seconds)
            }
            return (name, percentile(samples, 0.5))
        }
        return (times, recordsRead ?? 0)
    }

    /// The record frames of one segment, each block decoded with liblz4; how many are linked, and
    /// the bytes their blocks take (size words, data, checksums).
    private static func frames(of bytes: [UInt8], name: String) throws -> ([Frame], Int, Int) {
        func load32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        var frames: [Frame] = []
        var linkedFrames = 0
        var blockBytes = 0
        var offset = 0
        segment: while bytes.count - offset >= 8 {
            let magic = load32(offset)
            if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
                offset += 8 + Int(load32(offset + 4))
                continue
            }
            guard magic == SegmentFormat.lz4FrameMagic, bytes.count - offset >= 7 else {
                throw BenchmarkFailure(description: "\(name): unexpected bytes at offset \(offset)")
            }
            let flags = bytes[offset + 4]
            guard flags & 0x10 != 0 else { throw BenchmarkFailure(description: "\(name): a frame without block checksums at \(offset)") }
            let linked = flags & 0x20 == 0
            if linked { linkedFrames += 1 }
            offset += 7 + (flags & 0x08 != 0 ? 8 : 0)
            var frame = Frame()
            while bytes.count - offset >= 4 {
                let word = load32(offset)
                if word == 0 {
                    offset += flags & 0x04 != 0 ? 8 : 4
                    frames.append(frame)
                    continue segment
                }
                let size = Int(word & 0x7FFF_FFFF)
                guard bytes.count - offset >= 8 + size else { break }
                let data = Array(bytes[(offset + 4)..<(offset + 4 + size)])
                let start = frame.content.count
                if word & 0x8000_0000 != 0 {
                    frame.content += data
                } else {
                    frame.content += try decodeWithLiblz4(data, after: frame.content, linked: linked, name: name, offset: offset)
                }
                frame.blocks.append(Block(content: start..<frame.content.count))
                blockBytes += 8 + size
                offset += 8 + size
            }
            // The live segment's last frame has no end mark yet: its whole blocks count.
            if !frame.blocks.isEmpty { frames.append(frame) }
            break
        }
        return (frames, linkedFrames, blockBytes)
    }

    private static func decodeWithLiblz4(_ data: [UInt8], after content: [UInt8], linked: Bool, name: String, offset: Int) throws -> [UInt8] {
        let dictionary = linked ? Array(content.suffix(SegmentFormat.windowBytes)) : []
        var buffer = dictionary + [UInt8](repeating: 0, count: SegmentFormat.maxBlockBytes)
        let produced = buffer.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { source in
                let base = out.baseAddress!.assumingMemoryBound(to: CChar.self)
                return LZ4_decompress_safe_usingDict(source.baseAddress!.assumingMemoryBound(to: CChar.self), base + dictionary.count,
                                                     Int32(data.count), Int32(SegmentFormat.maxBlockBytes), base, Int32(dictionary.count))
            }
        }
        guard produced >= 0 else { throw BenchmarkFailure(description: "\(name): the block at \(offset) does not decode") }
        return Array(buffer[dictionary.count..<(dictionary.count + Int(produced))])
    }

    /// Compresses each block's content again as the writer would: linked (liblz4's stream over
    /// the frame's content in place) and alone; nil where compressing would not make it smaller.
    private static func recompress(_ frame: inout Frame) throws {
        guard let stream = LZ4_createStream() else { throw BenchmarkFailure(description: "liblz4 could not create a stream") }
        defer { LZ4_freeStream(stream) }
        let state = UnsafeMutableRawPointer.allocate(byteCount: Int(LZ4_sizeofState()), alignment: 16)
        defer { state.deallocate() }
        var output = [UInt8](repeating: 0, count: frame.content.count + 16)
        let content = frame.content
        content.withUnsafeBytes { source in
            for index in frame.blocks.indices {
                let range = frame.blocks[index].content
                let from = (source.baseAddress! + range.lowerBound).assumingMemoryBound(to: CChar.self)
                let capacity = Int32(range.count - 1)
                let linked = output.withUnsafeMutableBytes {
                    Int(LZ4_compress_fast_continue(stream, from, $0.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(range.count), capacity, 1))
                }
                frame.blocks[index].linked = linked > 0 ? Array(output[0..<linked]) : nil
                let alone = output.withUnsafeMutableBytes {
                    Int(LZ4_compress_fast_extState(state, from, $0.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(range.count), capacity, 1))
                }
                frame.blocks[index].independent = alone > 0 ? Array(output[0..<alone]) : nil
            }
            let swift = SwiftLZ4Compressor(linksBlocks: true)
            swift.beginFrame()
            for index in frame.blocks.indices {
                let range = frame.blocks[index].content
                let written = output.withUnsafeMutableBytes {
                    swift.compress(source.baseAddress! + range.lowerBound, count: range.count, into: $0.baseAddress!, capacity: range.count - 1)
                }
                frame.blocks[index].swiftLinked = written > 0 ? Array(output[0..<written]) : nil
            }
        }
    }

    /// Seconds to compress every frame's blocks once as linked blocks, by liblz4's stream or by
    /// the Swift compressor, each block into room one byte smaller than it (as the writer does);
    /// throws unless the sizes are those of the first compression.
    private static func compressAll(_ frames: [Frame], swift: Bool) throws -> Double {
        guard let stream = LZ4_createStream() else { throw BenchmarkFailure(description: "liblz4 could not create a stream") }
        defer { LZ4_freeStream(stream) }
        let compressor = SwiftLZ4Compressor(linksBlocks: true)
        var output = [UInt8](repeating: 0, count: frames.map(\.content.count).max()! + 16)
        var seconds = 0.0
        for frame in frames {
            var sizes: [Int] = []
            sizes.reserveCapacity(frame.blocks.count)
            let stopwatch = Stopwatch()
            frame.content.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { out in
                    if swift { compressor.beginFrame() } else { LZ4_resetStream_fast(stream) }
                    for block in frame.blocks {
                        let from = source.baseAddress! + block.content.lowerBound
                        let capacity = block.content.count - 1
                        sizes.append(swift
                            ? compressor.compress(from, count: block.content.count, into: out.baseAddress!, capacity: capacity)
                            : Int(LZ4_compress_fast_continue(stream, from.assumingMemoryBound(to: CChar.self),
                                                             out.baseAddress!.assumingMemoryBound(to: CChar.self),
                                                             Int32(block.content.count), Int32(capacity), 1)))
                    }
                }
            }
            seconds += stopwatch.seconds
            let expected = frame.blocks.map { (swift ? $0.swiftLinked : $0.linked)?.count ?? 0 }
            guard sizes == expected else { throw BenchmarkFailure(description: "compressing a frame again gave other sizes") }
        }
        return seconds
    }

    /// The number of records in a block's content (its block check included).
    private static func records(in content: ArraySlice<UInt8>) -> Int {
        recordRanges(in: content).count
    }

    /// Where each record of a block's content lies (length field included), its block check last.
    private static func recordRanges(in content: ArraySlice<UInt8>) -> [Range<Int>] {
        var position = content.startIndex
        var ranges: [Range<Int>] = []
        while position < content.endIndex {
            let start = position
            var length = 0
            var shift = 0
            while position < content.endIndex {
                let byte = content[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            position = min(position + length, content.endIndex)
            ranges.append(start..<position)
        }
        return ranges
    }

    /// `frame`'s records cut into blocks of `recordsPerBlock`, each ending with its block check.
    private static func regroup(_ frame: Frame, recordsPerBlock: Int) -> Frame {
        let records = frame.blocks.flatMap { recordRanges(in: frame.content[$0.content]).dropLast() }
        var regrouped = Frame()
        for first in stride(from: 0, to: records.count, by: recordsPerBlock) {
            let start = regrouped.content.count
            for range in records[first..<min(first + recordsPerBlock, records.count)] { regrouped.content += frame.content[range] }
            let digest = XXHash32.hash(regrouped.content[start...])
            regrouped.content += [6, 1, 0] + withUnsafeBytes(of: digest.littleEndian) { Array($0) }
            regrouped.blocks.append(Block(content: start..<regrouped.content.count))
        }
        return regrouped
    }

    /// Seconds to decode every compressed block of `frames` once, linked or independent, with the
    /// Swift decoder or liblz4; throws unless every frame's content comes out exactly.
    private static func decodeAll(_ frames: [Frame], swift: Bool, linked: Bool) throws -> Double {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: frames.map(\.content.count).max()! + 16, alignment: 16)
        defer { buffer.deallocate() }
        var seconds = 0.0
        for frame in frames {
            let stopwatch = Stopwatch()
            for block in frame.blocks {
                let start = block.content.lowerBound
                let dictionaryStart = linked ? max(0, start - SegmentFormat.windowBytes) : start
                guard let data = linked ? block.linked : block.independent else {
                    frame.content.withUnsafeBytes { (buffer + start).copyMemory(from: $0.baseAddress! + start, byteCount: block.content.count) }
                    continue
                }
                let produced = try data.withUnsafeBytes { source -> Int in
                    if swift {
                        return try LZ4BlockDecoder.decode(source, into: buffer, at: start, dictionaryStart: dictionaryStart,
                                                          limit: block.content.count)
                    }
                    let base = buffer.assumingMemoryBound(to: CChar.self)
                    return Int(LZ4_decompress_safe_usingDict(source.baseAddress!.assumingMemoryBound(to: CChar.self), base + start,
                                                             Int32(data.count), Int32(block.content.count),
                                                             base + dictionaryStart, Int32(start - dictionaryStart)))
                }
                guard produced == block.content.count else { throw BenchmarkFailure(description: "a block decoded to \(produced) bytes, not \(block.content.count)") }
            }
            seconds += stopwatch.seconds
            guard frame.content.withUnsafeBytes({ memcmp($0.baseAddress!, buffer, frame.content.count) == 0 }) else {
                throw BenchmarkFailure(description: "a frame did not decode to its content (\(swift ? "Swift" : "liblz4"), \(linked ? "linked" : "independent"))")
            }
        }
        return seconds
    }

    /// Seconds to read every record with `decoding` (a strict read), and how many it read. Never
    /// inlined, so callgrind can count it alone (`--toggle-collect='*BlockModeBenchmarkV4scan*'`).
    @inline(never)
    private func scan(_ decoding: LZ4Implementation) throws -> (seconds: Double, records: Int) {
        var reader = try JournalReader(directory: journal)
        reader.lz4Implementation = decoding
        let stopwatch = Stopwatch()
        let cursor = try reader.records()
        var records = 0
        while try cursor.nextView() != nil { records += 1 }
        let seconds = stopwatch.seconds
        guard records > 0 else { throw BenchmarkFailure(description: "the journal read no record") }
        return (seconds, records)
    }
}

/// `bench lz4`'s table and JSON.
enum BlockModeReportFormatter {
    static func table(_ report: BlockModeBenchmark.Report) -> String {
        guard report.blocks > 0 else {
            // --read-only: the strict reads alone.
            return (["strict read of \(report.records) records through JournalReader (median):"]
                    + report.scan.map { "  \($0.name.padding(toLength: 22, withPad: " ", startingAt: 0))\(Format.fixed($0.seconds * 1000, digits: 2)) ms" })
                .joined(separator: "\n")
        }
        let megabytes = Double(report.contentBytes) / 1e6
        var lines = [
            "journal: \(report.segments) segments, \(report.fileBytes) bytes; \(report.frames) frames, \(report.blocks) blocks"
                + (report.recordsPerBlock.map { " (regrouped: \($0) records a block)" } ?? " (its own commit groups)") + ", "
                + "\(report.records) records, \(report.contentBytes) bytes decompressed (median block \(report.blockContentMedian) bytes)",
            "blocks as linked:       \(report.linkedBlockBytes) bytes, ratio \(Format.fixed(ratio(report.contentBytes, report.linkedBlockBytes), digits: 2))x",
            "blocks as independent:  \(report.independentBlockBytes) bytes, ratio \(Format.fixed(ratio(report.contentBytes, report.independentBlockBytes), digits: 2))x",
            "linked, Swift's:        \(report.swiftLinkedBlockBytes) bytes, ratio \(Format.fixed(ratio(report.contentBytes, report.swiftLinkedBlockBytes), digits: 2))x",
            "segment files:          \(report.linkedFileBytes) bytes linked, \(report.independentFileBytes) independent (+"
                + "\(Format.fixed(Double(report.independentFileBytes - report.linkedFileBytes) * 100 / Double(report.linkedFileBytes), digits: 1))%)",
            "compress every block, linked (median):",
        ]
        for (name, seconds) in report.compress {
            lines.append("  \(name.padding(toLength: 22, withPad: " ", startingAt: 0))\(Format.fixed(seconds * 1000, digits: 2)) ms, "
                         + "\(Format.fixed(megabytes / seconds, digits: 0)) MB/s")
        }
        lines.append("decode every block (median):")
        for (name, seconds) in report.decode {
            lines.append("  \(name.padding(toLength: 22, withPad: " ", startingAt: 0))\(Format.fixed(seconds * 1000, digits: 2)) ms, "
                         + "\(Format.fixed(megabytes / seconds, digits: 0)) MB/s decompressed")
        }
        lines.append("strict read of every record through JournalReader (median):")
        for (name, seconds) in report.scan {
            lines.append("  \(name.padding(toLength: 22, withPad: " ", startingAt: 0))\(Format.fixed(seconds * 1000, digits: 2)) ms")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ report: BlockModeBenchmark.Report) -> String {
        let decode = report.decode.map { "\"\($0.name)\":\(Format.fixed($0.seconds, digits: 6))" }.joined(separator: ",")
        let compress = report.compress.map { "\"\($0.name)\":\(Format.fixed($0.seconds, digits: 6))" }.joined(separator: ",")
        let scan = report.scan.map { "\"\($0.name)\":\(Format.fixed($0.seconds, digits: 6))" }.joined(separator: ",")
        return "{\"segments\":\(report.segments),\"file_bytes\":\(report.fileBytes),\"records_per_block\":\(report.recordsPerBlock.map(String.init) ?? "null"),"
            + "\"linked_file_bytes\":\(report.linkedFileBytes),\"independent_file_bytes\":\(report.independentFileBytes),"
            + "\"frames\":\(report.frames),\"blocks\":\(report.blocks),\"records\":\(report.records),\"content_bytes\":\(report.contentBytes),"
            + "\"linked_block_bytes\":\(report.linkedBlockBytes),\"independent_block_bytes\":\(report.independentBlockBytes),"
            + "\"swift_linked_block_bytes\":\(report.swiftLinkedBlockBytes),\"median_block_bytes\":\(report.blockContentMedian),"
            + "\"compress_seconds\":{\(compress)},\"decode_seconds\":{\(decode)},\"scan_seconds\":{\(scan)}}"
    }

    private static func ratio(_ content: Int, _ stored: Int) -> Double { Double(content) / Double(stored) }
}
