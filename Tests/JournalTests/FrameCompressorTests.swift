import CLZ4
import SDKTesting
import TestSupport
import Testing
@testable import Journal

@Suite("Frame compressor: standard LZ4 frames over the block API, linked or independent", .timeLimit(.minutes(1)))
struct FrameCompressorTests {
    /// Groups like a journal's: compressible records, a short one, incompressible bytes, an
    /// empty one (skipped), and a long run.
    static let groups: [[UInt8]] = {
        var generator = SplitMix64(seed: 7)
        let text = Array(#"{"kind":"callReceived","call":"track","event":"screen_view","index":"#.utf8)
        return [
            (0..<40).flatMap { text + Array(String($0).utf8) },
            [42],
            (0..<3_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) },
            [],
            Array(repeating: 7, count: 20_000),
            (0..<200).flatMap { text + Array(String($0 * 3).utf8) },
        ]
    }()

    /// `groups` compressed as frames by `FrameCompressor`, a frame of `groupsPerFrame` groups at a time.
    static func compressed(groupsPerFrame: Int, mode: LZ4BlockMode = .linked,
                           implementation: LZ4Implementation = .liblz4) throws -> [UInt8] {
        let compressor = try FrameCompressor(mode: mode, implementation: implementation)
        let output = StagingBuffer(capacity: 1 << 16)
        for frameGroups in stride(from: 0, to: groups.count, by: groupsPerFrame).map({ Array(groups[$0..<min($0 + groupsPerFrame, groups.count)]) }) {
            let frame = FrameBuffer(capacity: 1 << 16)
            try compressor.beginFrame(into: output)
            for group in frameGroups {
                let start = frame.end
                let destination = try #require(frame.reserveRecord(group.count + 1))
                group.withUnsafeBytes { if let base = $0.baseAddress { destination.copyMemory(from: base, byteCount: group.count) } }
                frame.commitRecord(group.count)
                try compressor.compress(frame, from: start, to: frame.end, into: output)
            }
            try compressor.endFrame(into: output)
        }
        return Array(output.bytes)
    }

    /// The same with liblz4's frame API and the settings the journal's frames declare.
    static func liblz4Frames(groupsPerFrame: Int, mode: LZ4BlockMode = .linked) throws -> [UInt8] {
        var context: OpaquePointer?
        #expect(LZ4F_isError(LZ4F_createCompressionContext(&context, UInt32(LZ4F_VERSION))) == 0)
        let cctx = try #require(context)
        defer { LZ4F_freeCompressionContext(cctx) }
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockMode = mode == .linked ? LZ4F_blockLinked : LZ4F_blockIndependent
        preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        preferences.frameInfo.blockSizeID = LZ4F_max4MB
        preferences.autoFlush = 1
        var options = LZ4F_compressOptions_t()
        options.stableSrc = 1
        var out: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 1 << 17)
        func take(_ written: Int) {
            #expect(LZ4F_isError(written) == 0)
            out += scratch[0..<written]
        }
        for first in stride(from: 0, to: groups.count, by: groupsPerFrame) {
            // One buffer per frame, as the journal's: linked blocks refer to earlier groups in place.
            let frame = Array(groups[first..<min(first + groupsPerFrame, groups.count)].joined())
            try frame.withUnsafeBytes { source in
                take(scratch.withUnsafeMutableBytes { LZ4F_compressBegin(cctx, $0.baseAddress, $0.count, &preferences) })
                var offset = 0
                for group in groups[first..<min(first + groupsPerFrame, groups.count)] where !group.isEmpty {
                    let base = try #require(source.baseAddress) + offset
                    take(scratch.withUnsafeMutableBytes { LZ4F_compressUpdate(cctx, $0.baseAddress, $0.count, base, group.count, &options) })
                    offset += group.count
                }
                take(scratch.withUnsafeMutableBytes { LZ4F_compressEnd(cctx, $0.baseAddress, $0.count, &options) })
            }
        }
        return out
    }

    @Test("writes the bytes liblz4's frame API writes with the same settings",
          arguments: [1, 2, 6], [LZ4BlockMode.linked, .independent])
    func sameBytesAsTheFrameAPI(groupsPerFrame: Int, mode: LZ4BlockMode) throws {
        let ours = try Self.compressed(groupsPerFrame: groupsPerFrame, mode: mode)
        #expect(ours == (try Self.liblz4Frames(groupsPerFrame: groupsPerFrame, mode: mode)))
    }

    @Test("its frames decode back to the groups through liblz4's frame API, and an incompressible group is stored as it is",
          arguments: [LZ4BlockMode.linked, .independent], [LZ4Implementation.liblz4, .swift])
    func decodesBack(mode: LZ4BlockMode, implementation: LZ4Implementation) throws {
        let bytes = try Self.compressed(groupsPerFrame: 6, mode: mode, implementation: implementation)
        #expect(Array(bytes[0..<7]) == FrameCompressor.header(for: mode))
        #expect(bytes[4] == (mode == .linked ? 0x50 : 0x70), "the descriptor says whether blocks are independent")
        var context: OpaquePointer?
        #expect(LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0)
        let dctx = try #require(context)
        defer { LZ4F_freeDecompressionContext(dctx) }
        var decoded = [UInt8](repeating: 0, count: 1 << 17)
        var sourceSize = bytes.count
        var decodedSize = decoded.count
        let status = bytes.withUnsafeBytes { source in
            decoded.withUnsafeMutableBytes { LZ4F_decompress(dctx, $0.baseAddress, &decodedSize, source.baseAddress, &sourceSize, nil) }
        }
        #expect(status == 0, "the frame ends where the bytes end")
        #expect(sourceSize == bytes.count)
        #expect(Array(decoded[0..<decodedSize]) == Array(Self.groups.joined()))
        // The third group (random bytes) follows the first two blocks, uncompressed: its size
        // word has the top bit set.
        var offset = 7
        for _ in 0..<2 {
            let word = bytes[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(8 * $1.offset) }
            offset += 4 + Int(word & 0x7FFF_FFFF) + 4
        }
        let third = bytes[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(8 * $1.offset) }
        #expect(third == UInt32(3_000) | 0x8000_0000)
    }
}
