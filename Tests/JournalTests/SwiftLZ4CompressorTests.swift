import CLZ4
import SDKTesting
import Testing
@testable import Journal

@Suite("LZ4 block compressor in Swift, read back by liblz4", .timeLimit(.minutes(1)))
struct SwiftLZ4CompressorTests {
    /// `parts` compressed by the Swift compressor as the blocks of one frame (`linked`, each
    /// from the frame's content in place), with room for any block.
    static func compress(_ parts: [[UInt8]], linked: Bool) -> [[UInt8]] {
        let compressor = SwiftLZ4Compressor(linksBlocks: linked)
        compressor.beginFrame()
        let content = Array(parts.joined())
        var blocks: [[UInt8]] = []
        content.withUnsafeBytes { source in
            var offset = 0
            for part in parts {
                var output = [UInt8](repeating: 0, count: part.count + part.count / 255 + 16)
                let written = output.withUnsafeMutableBytes {
                    compressor.compress(source.baseAddress! + offset, count: part.count, into: $0.baseAddress!, capacity: $0.count)
                }
                blocks.append(Array(output.prefix(written)))
                offset += part.count
            }
        }
        return blocks
    }

    /// liblz4's decoding of `block` with exactly `size` bytes of room, which holds the block to
    /// the format's end-of-block rules: nil when it refuses it.
    static func liblz4Exact(_ block: [UInt8], dictionary: [UInt8], size: Int) -> [UInt8]? {
        LZ4Reference.decode(block, dictionary: dictionary, limit: size)
    }

    @Test("every input compresses to one block liblz4 and the Swift decoder read back, end-of-block rules kept")
    func singleBlocks() throws {
        for (name, input) in LZ4Reference.inputs where !input.isEmpty {
            let block = try #require(Self.compress([input], linked: false).first)
            #expect(!block.isEmpty, "\(name)")
            #expect(Self.liblz4Exact(block, dictionary: [], size: input.count) == input, "\(name)")
            let (decoded, _) = LZ4Reference.swiftDecode(block, dictionary: [], limit: input.count, exactly: true)
            #expect(try decoded.get() == input, "\(name)")
        }
    }

    @Test("linked blocks copy from the frame's earlier blocks; independent ones read alone", arguments: [true, false])
    func frames(linked: Bool) throws {
        let parts = (0..<6).flatMap { _ in LZ4Reference.inputs.map(\.bytes).filter { !$0.isEmpty } }
        let blocks = Self.compress(parts, linked: linked)
        var content: [UInt8] = []
        var refersBack = false
        for (index, block) in blocks.enumerated() {
            let dictionary = linked ? Array(content.suffix(SegmentFormat.windowBytes)) : []
            #expect(Self.liblz4Exact(block, dictionary: dictionary, size: parts[index].count) == parts[index], "block \(index)")
            let (decoded, _) = LZ4Reference.swiftDecode(block, dictionary: dictionary, limit: parts[index].count, exactly: true)
            #expect(try decoded.get() == parts[index], "block \(index)")
            if linked && LZ4Reference.decode(block, dictionary: [], limit: parts[index].count) == nil { refersBack = true }
            content += parts[index]
        }
        #expect(refersBack == linked, "linked blocks use the frame's earlier content, independent ones never")
    }

    @Test("compresses records about as well as liblz4, alone and linked")
    func ratio() {
        let records = LZ4Reference.inputs.first { $0.name == "records" }!.bytes
        let groups = stride(from: 0, to: records.count, by: 700).map { Array(records[$0..<min($0 + 700, records.count)]) }
        let swiftAlone = Self.compress([records], linked: false)[0].count
        let liblz4Alone = LZ4Reference.compress(records).count
        let swiftLinked = Self.compress(groups, linked: true).reduce(0) { $0 + $1.count }
        let liblz4Linked = LZ4Reference.compressLinked(groups).reduce(0) { $0 + $1.count }
        #expect(Double(swiftAlone) <= 1.05 * Double(liblz4Alone), "Swift \(swiftAlone) bytes, liblz4 \(liblz4Alone)")
        #expect(Double(swiftLinked) <= 1.05 * Double(liblz4Linked), "Swift \(swiftLinked) bytes, liblz4 \(liblz4Linked)")
    }

    @Test("a block that does not fit the room given is refused (0), one that fits exactly is written")
    func capacity() throws {
        var generator = SplitMix64(seed: 9)
        let random = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let compressor = SwiftLZ4Compressor(linksBlocks: false)
        // Incompressible: one byte less than the input cannot hold it.
        var output = [UInt8](repeating: 0, count: 4_000)
        let refused = random.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { compressor.compress(source.baseAddress!, count: random.count, into: $0.baseAddress!, capacity: random.count - 1) }
        }
        #expect(refused == 0)
        let records = LZ4Reference.inputs.first { $0.name == "records" }!.bytes
        let size = Self.compress([records], linked: false)[0].count
        for room in [size - 1, size] {
            var exact = [UInt8](repeating: 0, count: room)
            let written = records.withUnsafeBytes { source in
                exact.withUnsafeMutableBytes { compressor.compress(source.baseAddress!, count: records.count, into: $0.baseAddress!, capacity: room) }
            }
            #expect(written == (room == size ? size : 0), "room \(room)")
        }
    }
}
