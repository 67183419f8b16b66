import CLZ4
import Foundation
import SDKTesting
import Testing
import TestSupport
@testable import Journal

/// Segments built by hand, byte by byte, with valid checksums around invalid contents: the
/// reader must answer with damage, never crash, and never allocate by what a length claims.
@Suite("Hostile segments", .timeLimit(.minutes(3)))
struct HostileInputTests {
    static let directory = "/hostile"
    static let header = SegmentHeader(
        journalID: UUID(uuidString: "00000000-0000-4000-8000-0000000000AA")!, baseSequence: 1,
        baseTime: JournalTime(microsecondsSince1970: 0), createdMonotonicNanoseconds: 0,
        maxRecordsPerFrame: 1000, maxRecordBytes: 4096, producer: "hostile")

    /// A segment: header, one sync marker, one LZ4 frame made of `blocks` (raw stored bytes,
    /// already compressed or not), closed with an end mark when `closed`.
    static func segment(blocks: [(stored: [UInt8], compressed: Bool, sizeOverride: UInt32?)], closed: Bool = true) -> [UInt8] {
        var bytes = header.encoded()
        bytes += SyncMarker(firstSequence: 1, firstTime: JournalTime(microsecondsSince1970: 0)).encoded()
        bytes += [0x04, 0x22, 0x4D, 0x18, SegmentFormat.writerFrameFlags, SegmentFormat.writerBlockDescriptor]
        bytes.append(UInt8(truncatingIfNeeded: XXHash32.hash([SegmentFormat.writerFrameFlags, SegmentFormat.writerBlockDescriptor]) >> 8))
        for block in blocks {
            var writer = ByteWriter()
            writer.writeUInt32((block.sizeOverride ?? UInt32(block.stored.count)) | (block.compressed ? 0 : 0x8000_0000))
            writer.writeBytes(block.stored)
            writer.writeUInt32(XXHash32.hash(block.stored))
            bytes += writer.bytes
        }
        if closed { bytes += [0, 0, 0, 0] }
        return bytes
    }

    /// Block content: the given raw record bytes followed by a correct block check.
    static func content(_ records: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeBytes(records)
        writer.writeBytes([6, 1, 0])
        writer.writeUInt32(XXHash32.hash(records))
        return writer.bytes
    }

    static func compress(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(input.count))))
        let written = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { LZ4_compress_default($0.baseAddress, out.baseAddress, Int32(input.count), Int32(out.count)) }
        }
        return Array(output.prefix(Int(written)))
    }

    func damages(_ segmentBytes: [UInt8]) throws -> (records: [JournalRecord], report: VerificationReport) {
        let storage = InMemoryStorage()
        try storage.createDirectory(at: Self.directory)
        storage.setBytes(segmentBytes, of: Self.directory + "/" + SegmentFormat.segmentFileName(baseSequence: 1))
        let reader = try JournalReader(directory: Self.directory, storage: storage)
        let (records, _) = try reader.readAll(mode: .salvage)
        return (records, reader.verify())
    }

    @Test("a well-formed hand-built segment reads back (the builder is right)")
    func builderIsRight() throws {
        var record = ByteWriter()
        record.writeVarint(4); record.writeVarint(20); record.writeSignedVarint(0); record.writeBytes([7, 8])
        let (records, report) = try damages(Self.segment(blocks: [(Self.content(record.bytes), false, nil)]))
        #expect(records.map(\.payload) == [[7, 8]])
        #expect(records.first?.kind == 20)
        #expect(report.isClean && report.tornTail == nil)
    }

    @Test("hostile record lengths and varints are damage, never a crash or an allocation", arguments: [
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] as [UInt8],          // length 2^63-ish
        [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],         // 11-byte varint
        [0x90, 0x4E, 20, 0, 1, 2, 3],                                                  // length 10000 > limit
        [0x05, 20, 0, 1],                                                              // runs past the block
        [0x03, 0xFF, 0xFF, 0xFF],                                                      // kind varint never ends
        [0x02, 1, 0],                                                                  // a second block check
        [0x01, 20],                                                                    // no time delta
    ])
    func hostileRecords(records: [UInt8]) throws {
        for compressed in [false, true] {
            let stored = compressed ? Self.compress(Self.content(records)) : Self.content(records)
            let (found, report) = try damages(Self.segment(blocks: [(stored, compressed, nil)]))
            #expect(found.isEmpty)
            #expect(report.corruption.count + (report.tornTail == nil ? 0 : 1) == 1)
        }
    }

    @Test("hostile block sizes are damage", arguments: [UInt32(0x7FFF_FFFF), UInt32(4 * 1024 * 1024 + 1), UInt32(100_000), UInt32(3)])
    func hostileBlockSizes(size: UInt32) throws {
        let (found, report) = try damages(Self.segment(blocks: [(Array(Self.content([]).prefix(Int(min(size, 10)))), false, size)]))
        #expect(found.isEmpty)
        #expect(report.corruption.count + (report.tornTail == nil ? 0 : 1) == 1)
    }

    @Test("an LZ4 block that would expand past the block maximum is refused by the decoder")
    func decompressionBomb() throws {
        // A valid LZ4 block of 6 MiB of zeros: larger than the 4 MiB frame maximum.
        let bomb = Self.compress([UInt8](repeating: 0, count: 6 << 20))
        let (found, report) = try damages(Self.segment(blocks: [(bomb, true, nil)]))
        #expect(found.isEmpty)
        #expect(!report.corruption.isEmpty || report.tornTail != nil)
    }

    @Test("a segment that is all zeros, or only a header, or random bytes, never yields a record",
          arguments: [0, 1, 2, 3])
    func zerosAndGarbage(variant: Int) throws {
        var generator = SplitMix64(seed: UInt64(variant))
        let bytes: [UInt8] = switch variant {
        case 0: [UInt8](repeating: 0, count: 8192)
        case 1: Self.header.encoded() + [UInt8](repeating: 0, count: 8192)
        case 2: Self.header.encoded() + (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        default: (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let (found, report) = try damages(bytes)
        #expect(found.isEmpty)
        #expect(report.records == 0)
    }

    @Test("a segment from a newer major version is refused, naming both versions")
    func newerVersion() throws {
        var header = Self.header
        header.version = FormatVersion(major: 2, minor: 3)
        let storage = InMemoryStorage()
        try storage.createDirectory(at: Self.directory)
        storage.setBytes(header.encoded(), of: Self.directory + "/" + SegmentFormat.segmentFileName(baseSequence: 1))
        #expect {
            _ = try JournalReader(directory: Self.directory, storage: storage)
        } throws: { error in
            let message = "\(error)"
            return message.contains("2.3") && message.contains("1.x") && message.contains("segment-")
        }
        let options = TestJournal.options(storage: storage)
        #expect(throws: JournalError.self) {
            _ = try JournalWriter(directory: Self.directory, options: options, snapshot: TestJournal.snapshot)
        }
    }

    @Test("a newer minor version with extra header bytes and an unknown skippable frame still reads")
    func newerMinorVersion() throws {
        var header = Self.header
        header.version = FormatVersion(major: 1, minor: 7)
        // Re-encode with four extension bytes before the checksum.
        var encoded = header.encoded()
        let contentEnd = encoded.count - 4
        encoded.insert(contentsOf: [9, 9, 9, 9], at: contentEnd)
        let size = UInt32(encoded.count - 8)
        encoded.replaceSubrange(4..<8, with: withUnsafeBytes(of: size.littleEndian, Array.init))
        encoded.replaceSubrange((encoded.count - 4)..., with: withUnsafeBytes(of: XXHash32.hash(encoded[8..<(encoded.count - 4)]).littleEndian, Array.init))
        var record = ByteWriter()
        record.writeVarint(3); record.writeVarint(99); record.writeSignedVarint(0); record.writeBytes([42])
        let body = Self.segment(blocks: [(Self.content(record.bytes), false, nil)])
        let unknownFrame: [UInt8] = [0x5F, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 0xAB, 0xCD]
        let bytes = encoded + unknownFrame + body[Self.header.encoded().count...]
        let (found, report) = try damages(bytes)
        #expect(found.map(\.payload) == [[42]])
        #expect(found.first?.kind == 99, "unknown kinds are passed through")
        #expect(report.isClean)
    }
}
