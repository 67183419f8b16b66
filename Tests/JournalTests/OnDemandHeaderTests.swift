import Foundation
import Locking
import Testing
@testable import Journal

/// A storage that counts which files were opened for reading.
private final class OpenCountingStorage: JournalStorage {
    let inner: InMemoryStorage
    private let opened = Locked<[String]>([])

    init(_ inner: InMemoryStorage) { self.inner = inner }

    /// The file names opened for reading so far, in order.
    var openedNames: [String] { opened.withLock { $0 } }

    func createDirectory(at path: String) throws { try inner.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try inner.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile { try inner.createFile(at: path) }
    func openForAppending(at path: String) throws -> any WritableFile { try inner.openForAppending(at: path) }
    func sizeOfFile(at path: String) throws -> Int { try inner.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents {
        opened.withLock { $0.append(String(path.split(separator: "/").last ?? "")) }
        return try inner.contents(of: path)
    }
    func removeFile(at path: String) throws { try inner.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try inner.synchronizeDirectory(at: path) }
}

@Suite("Reader: headers read on demand", .timeLimit(.minutes(3)))
struct OnDemandHeaderTests {
    @Test("a seek reads only the segment holding the sequence (and the first's id), and finds the same records")
    func seekReadsOneSegment() throws {
        let fixture = try JournalFixture(count: 1200)
        #expect(fixture.segments.count > 4)
        let eager = try JournalReader(directory: JournalFixture.directory, storage: fixture.storage)
        for target in stride(from: UInt64(1), through: UInt64(fixture.records.count), by: 13) {
            let storage = OpenCountingStorage(fixture.storage)
            let reader = try JournalReader(directory: JournalFixture.directory, storage: storage, headers: .onDemand)
            #expect(storage.openedNames.isEmpty)
            let cursor = try reader.records(from: target)
            let record = try #require(try cursor.next())
            #expect(record == (try eager.records(from: target).next()))
            let holding = try #require(eager.segments.last { $0.baseSequence <= target })
            // Besides it, only the first segment's header is read: the journal's id, which every
            // segment reached is checked against.
            let segmentsOpened = Set(storage.openedNames.filter { $0.hasSuffix(".lz4") })
            #expect(segmentsOpened.contains(holding.name), "seeking \(target)")
            #expect(segmentsOpened.isSubset(of: [eager.segments[0].name, holding.name]), "seeking \(target): \(segmentsOpened)")
        }
    }

    @Test("segments read on demand say what reading them all says")
    func sameSegments() throws {
        let fixture = try JournalFixture(count: 300)
        let eager = try JournalReader(directory: JournalFixture.directory, storage: fixture.storage)
        let lazy = try JournalReader(directory: JournalFixture.directory, storage: fixture.storage, headers: .onDemand)
        #expect(lazy.segments.map(\.name) == eager.segments.map(\.name))
        #expect(lazy.segments.map(\.bytes) == eager.segments.map(\.bytes))
        #expect(lazy.segments.map(\.header) == eager.segments.map(\.header))
        #expect(lazy.journalID == eager.journalID)
        #expect(try lazy.records().readAll() == (try eager.records().readAll()))
    }

    @Test("another journal's segment throws when it is reached, not when the directory is opened")
    func mixedJournalThrowsWhenReached() throws {
        func options() -> JournalOptions {
            var options = TestJournal.options(segmentBytes: 4096, frameBytes: 1024, groupRecords: 4)
            options.journalID = UUID()
            return options
        }
        let first = try JournalFixture(count: 300, options: options())
        let second = try JournalFixture(count: 300, options: options())
        #expect(first.segments == second.segments)
        let mixed = first.storage.copy()
        let foreign = first.segments[2]
        mixed.setBytes(second.bytes(of: foreign), of: JournalFixture.directory + "/" + foreign)
        #expect(throws: JournalError.mixedJournals(path: JournalFixture.directory)) {
            try JournalReader(directory: JournalFixture.directory, storage: mixed)
        }
        let reader = try JournalReader(directory: JournalFixture.directory, storage: mixed, headers: .onDemand)
        #expect(try reader.header(ofSegment: 1) != nil)
        #expect(throws: JournalError.mixedJournals(path: JournalFixture.directory)) { try reader.header(ofSegment: 2) }
        // The records before the foreign segment are read; the cursor throws on reaching it.
        let cursor = try reader.records(from: reader.segments[1].baseSequence)
        var read: [JournalRecord] = []
        #expect(throws: JournalError.mixedJournals(path: JournalFixture.directory)) {
            while let record = try cursor.next() { read.append(record) }
        }
        #expect(read.last?.sequence == reader.segments[2].baseSequence - 1)
    }

    @Test("damage in a segment read on demand is reported at the same file and offset")
    func damageSameLocation() throws {
        let fixture = try JournalFixture(count: 300)
        let damaged = fixture.storage.copy()
        let name = fixture.segments[2]
        var bytes = fixture.bytes(of: name)
        bytes[bytes.count / 2] ^= 0x5A
        damaged.setBytes(bytes, of: JournalFixture.directory + "/" + name)
        func damage(_ headers: JournalReader.HeaderReading) throws -> Damage? {
            let reader = try JournalReader(directory: JournalFixture.directory, storage: damaged, headers: headers)
            do {
                _ = try reader.records(from: reader.segments[2].baseSequence).readAll()
                return nil
            } catch JournalError.corrupted(let damage) {
                return damage
            }
        }
        let eager = try #require(try damage(.everySegment))
        #expect(eager.segment == name)
        #expect(try damage(.onDemand) == eager)
    }

    @Test("segment file names are read as SegmentFormat reads them")
    func fileNames() {
        let names = ["segment-00000000000000000001.lz4", "segment-00000000000000052117.lz4",
                     "segment-00000000000000000001.idx", "segment-0000000000000000001.lz4",
                     "segment-000000000000000000001.lz4", "segment-18446744073709551615.lz4",
                     "segment-18446744073709551616.lz4", "segment-99999999999999999999.lz4",
                     "segment-0000000000000000000a.lz4", "Segment-00000000000000000001.lz4",
                     "segment-00000000000000000001.lz4.tmp", "segment-0000000000000000000١.lz4",
                     "segment-00000000000000000001.LZ4", "", "segment-", ".lz4"]
        for name in names {
            #expect(JournalDirectory.baseSequence(ofFileName: name) == SegmentFormat.baseSequence(ofSegmentFileName: name), "\(name)")
        }
    }
}

extension RecordCursor {
    /// Every remaining record.
    fileprivate func readAll() throws -> [JournalRecord] {
        var records: [JournalRecord] = []
        while let record = try next() { records.append(record) }
        return records
    }
}
