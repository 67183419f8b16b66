import Foundation
@testable import Journal

/// A small multi-segment journal in memory, with where each record's block ends, so damage
/// tests can say exactly which records a damaged copy must still return.
struct JournalFixture {
    static let directory = "/journal"

    /// A record and the end offset (in its segment) of the block that holds it.
    struct Located {
        var record: JournalRecord
        var segment: String
        var blockEnd: Int
    }

    let storage: InMemoryStorage
    /// Segment file names, oldest first.
    let segments: [String]
    let records: [Located]

    /// Writes `count` test records into a fresh in-memory journal.
    init(count: Int = 240, options: JournalOptions = TestJournal.options(segmentBytes: 4096, frameBytes: 1024, groupRecords: 4)) throws {
        var options = options
        let storage = InMemoryStorage()
        options.storage = storage
        let writer = try JournalWriter(directory: Self.directory, options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: count)
        try writer.close()
        self.storage = storage
        segments = storage.fileNames(in: Self.directory).filter { $0.hasSuffix(".lz4") }
        records = try Self.locate(storage: storage, segments: segments)
    }

    /// Every record with the end of its block, found by driving the segment decoder directly.
    private static func locate(storage: InMemoryStorage, segments: [String]) throws -> [Located] {
        var located: [Located] = []
        for (index, name) in segments.enumerated() {
            let contents = try storage.contents(of: directory + "/" + name)
            var decoder = try SegmentDecoder(name: name, contents: contents, isLastSegment: index == segments.count - 1, window: DecodeWindow())
            loop: while true {
                // A block is verified and decoded before its first record is returned, so when
                // a record comes out, validEnd is the end of the block that holds it.
                switch decoder.next() {
                case .record(let view):
                    located.append(Located(record: JournalRecord(view), segment: name, blockEnd: decoder.validEnd))
                case .syncPoint: continue
                case .end: break loop
                case .damage(let damage): throw JournalError.corrupted(damage)
                }
            }
        }
        return located
    }

    /// A copy of the journal's files as a crash at byte `cut` of segment `segmentIndex` leaves
    /// them: that segment cut there, later segments never created.
    func cut(segment segmentIndex: Int, at cut: Int) -> InMemoryStorage {
        let copy = InMemoryStorage()
        try? copy.createDirectory(at: Self.directory)
        for (index, name) in segments.enumerated() where index <= segmentIndex {
            let bytes = storage.bytes(of: Self.directory + "/" + name) ?? []
            copy.setBytes(index == segmentIndex ? Array(bytes.prefix(cut)) : bytes, of: Self.directory + "/" + name)
        }
        return copy
    }

    /// The records a reader must return from `cut(segment:at:)`.
    func expectedRecords(segment segmentIndex: Int, at cut: Int) -> [JournalRecord] {
        let segmentOrder = Dictionary(uniqueKeysWithValues: segments.enumerated().map { ($1, $0) })
        return records.filter { located in
            let index = segmentOrder[located.segment]!
            return index < segmentIndex || (index == segmentIndex && located.blockEnd <= cut)
        }.map(\.record)
    }

    func bytes(of segment: String) -> [UInt8] {
        storage.bytes(of: Self.directory + "/" + segment) ?? []
    }
}

extension JournalReader {
    /// Every record a cursor returns in `mode`, with the cursor for its reports.
    func readAll(mode: ReadMode = .strict) throws -> (records: [JournalRecord], cursor: RecordCursor) {
        let cursor = try records(mode: mode)
        var records: [JournalRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return (records, cursor)
    }
}
