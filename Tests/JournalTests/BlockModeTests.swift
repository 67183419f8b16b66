import Foundation
import Testing
import TestSupport
@testable import Journal

/// Journals written with linked and with independent blocks, by liblz4 and by the Swift
/// compressor (what iOS writes with), read through liblz4 and through the Swift
/// decoder (what iOS reads with): the same records every way, the committed golden
/// journals included.
@Suite("Block modes and decoders: every journal reads the same every way", .timeLimit(.minutes(2)))
struct BlockModeTests {
    static let directory = "/journal"

    /// A reader of `storage`'s journal through `decoding`.
    static func reader(_ storage: any JournalStorage, directory: String = directory, decoding: LZ4Implementation) throws -> JournalReader {
        var reader = try JournalReader(directory: directory, storage: storage)
        reader.lz4Implementation = decoding
        return reader
    }

    /// What a cursor in `mode` returns, and what it stopped at or stepped over.
    struct Reading: Equatable {
        var records: [JournalRecord] = []
        var tornTail: Damage?
        var corruption: [Damage] = []
        var skipped: [SkippedRange] = []
        var failure: String?
    }

    static func read(_ reader: JournalReader, mode: JournalReader.ReadMode) -> Reading {
        var reading = Reading()
        do {
            let cursor = try reader.records(mode: mode)
            do {
                while let record = try cursor.next() { reading.records.append(record) }
            } catch {
                reading.failure = "\(error)"
            }
            reading.tornTail = cursor.tornTail
            reading.corruption = cursor.corruption
            reading.skipped = cursor.skipped
        } catch {
            reading.failure = "\(error)"
        }
        return reading
    }

    /// The FLG byte of every record frame in `storage`'s segments, found by walking their sync markers.
    static func frameFlags(_ storage: InMemoryStorage) throws -> [UInt8] {
        try storage.fileNames(in: directory).filter { $0.hasSuffix(".lz4") }.flatMap { name in
            let bytes = try #require(storage.bytes(of: directory + "/" + name))
            let (_, headerLength) = try bytes.withUnsafeBytes { try SegmentHeader.decode(from: $0) }
            let points = bytes.withUnsafeBytes { SegmentDecoder.walkSyncPoints($0, from: headerLength) }
            return points.map { bytes[$0.offset + SegmentFormat.syncMarkerBytes + 4] }
        }
    }

    /// Writes `count` test records from `first` on in `mode`; returns what was appended.
    static func write(_ storage: InMemoryStorage, mode: LZ4BlockMode, implementation: LZ4Implementation = .liblz4,
                      count: Int, from first: Int = 0) throws {
        var options = TestJournal.options(segmentBytes: 8192, frameBytes: 2048, groupRecords: 4, storage: storage)
        options.blockMode = mode
        options.lz4Implementation = implementation
        let writer = try JournalWriter(directory: directory, options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: count, startingAt: first)
        try writer.close()
    }

    @Test("a journal of either mode, written by either compressor, reads back through both decoders",
          arguments: [LZ4BlockMode.linked, .independent], [LZ4Implementation.liblz4, .swift])
    func roundTrip(mode: LZ4BlockMode, implementation: LZ4Implementation) throws {
        let storage = InMemoryStorage()
        try Self.write(storage, mode: mode, implementation: implementation, count: 400)
        let flags = try Self.frameFlags(storage)
        #expect(flags.count > 10 && flags.allSatisfy { $0 == mode.frameFlags }, "\(flags)")
        let expected = (0..<400).map { TestJournal.payload($0) }
        let liblz4 = Self.read(try Self.reader(storage, decoding: .liblz4), mode: .strict)
        let swift = Self.read(try Self.reader(storage, decoding: .swift), mode: .strict)
        #expect(liblz4.failure == nil && liblz4.tornTail == nil)
        #expect(TestJournal.applicationRecords(liblz4.records).map(\.payload) == expected)
        #expect(swift == liblz4)
        #expect(try Self.reader(storage, decoding: .swift).verify() == Self.reader(storage, decoding: .liblz4).verify())
    }

    @Test("independent blocks cost bytes; the Swift compressor's linked journal is within 10% of liblz4's")
    func sizes() throws {
        func bytes(_ mode: LZ4BlockMode, _ implementation: LZ4Implementation) throws -> Int {
            let storage = InMemoryStorage()
            try Self.write(storage, mode: mode, implementation: implementation, count: 400)
            return try Self.reader(storage, decoding: .liblz4).segments.reduce(0) { $0 + $1.bytes }
        }
        let linked = try bytes(.linked, .liblz4)
        let independent = try bytes(.independent, .liblz4)
        let swiftLinked = try bytes(.linked, .swift)
        #expect(independent > linked, "independent \(independent) bytes, linked \(linked)")
        #expect(Double(swiftLinked) <= 1.1 * Double(linked), "Swift \(swiftLinked) bytes, liblz4 \(linked)")
        #expect(try bytes(.independent, .swift) > swiftLinked)
    }

    @Test("a journal continued in the other mode holds frames of both and reads as one",
          arguments: [LZ4BlockMode.linked, .independent])
    func mixedModes(first: LZ4BlockMode) throws {
        let storage = InMemoryStorage()
        let second: LZ4BlockMode = first == .linked ? .independent : .linked
        try Self.write(storage, mode: first, count: 150)
        try Self.write(storage, mode: second, implementation: .swift, count: 150, from: 150)
        #expect(Set(try Self.frameFlags(storage)) == [first.frameFlags, second.frameFlags])
        let liblz4 = Self.read(try Self.reader(storage, decoding: .liblz4), mode: .strict)
        #expect(TestJournal.applicationRecords(liblz4.records).map(\.payload) == (0..<300).map { TestJournal.payload($0) })
        #expect(Self.read(try Self.reader(storage, decoding: .swift), mode: .strict) == liblz4)
    }

    @Test("a block that does not decode is damage at its offset, the reason naming the byte, through either decoder",
          arguments: [LZ4Implementation.liblz4, .swift])
    func undecodableBlock(decoding: LZ4Implementation) throws {
        // Literal "a", then a match 5 bytes back where only 1 byte was decoded, then literals.
        let block: [UInt8] = [0x14, 0x61, 0x05, 0x00, 0x50] + Array("vwxyz".utf8)
        let segment = HostileInputTests.segment(blocks: [(block, true, nil)])
        let storage = InMemoryStorage()
        try storage.createDirectory(at: HostileInputTests.directory)
        storage.setBytes(segment, of: HostileInputTests.directory + "/" + SegmentFormat.segmentFileName(baseSequence: 1))
        let reader = try Self.reader(storage, directory: HostileInputTests.directory, decoding: decoding)
        let report = reader.verify()
        let damage = try #require(report.tornTail ?? report.corruption.first)
        let blockOffset = HostileInputTests.header.encoded().count + SegmentFormat.syncMarkerBytes + 7
        #expect(damage.offset == blockOffset)
        switch decoding {
        case .liblz4: #expect(damage.reason.hasPrefix("block does not decode as LZ4 (at block byte "), "\(damage)")
        case .swift:
            #expect(damage.reason == "block does not decode as LZ4 (at block byte 2: match offset 5 reaches before the 1 bytes "
                    + "of the block and its dictionary so far)")
        }
    }

    // MARK: - Golden journals

    /// The committed golden journals (`Tests/Fixtures/journals/v*/*`), never written to: their
    /// files are read into memory.
    static func goldenJournals() throws -> [(name: String, storage: InMemoryStorage)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/journals").path
        let files = FileManager.default
        var journals: [(String, InMemoryStorage)] = []
        for version in try files.contentsOfDirectory(atPath: root).sorted() where version.hasPrefix("v") {
            for name in try files.contentsOfDirectory(atPath: root + "/" + version).sorted() {
                let path = root + "/" + version + "/" + name
                var isDirectory: ObjCBool = false
                guard files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                let storage = InMemoryStorage()
                try storage.createDirectory(at: directory)
                for file in try files.contentsOfDirectory(atPath: path) {
                    storage.setBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + file))), of: directory + "/" + file)
                }
                journals.append((version + "/" + name, storage))
            }
        }
        return journals
    }

    @Test("every golden journal reads through the Swift decoder exactly as through liblz4")
    func goldenJournalsThroughTheSwiftDecoder() throws {
        let journals = try Self.goldenJournals()
        #expect(journals.count >= 8, "\(journals.map(\.name))")
        var records = 0
        for (name, storage) in journals {
            for mode in [JournalReader.ReadMode.strict, .salvage] {
                let liblz4 = Self.read(try Self.reader(storage, decoding: .liblz4), mode: mode)
                let swift = Self.read(try Self.reader(storage, decoding: .swift), mode: mode)
                #expect(swift == liblz4, "\(name), \(mode)")
                records += liblz4.records.count
            }
            #expect(try Self.reader(storage, decoding: .swift).verify() == Self.reader(storage, decoding: .liblz4).verify(), "\(name)")
        }
        #expect(records > 1_000)
    }
}
