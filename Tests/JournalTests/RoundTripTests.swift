import Foundation
import Testing
import TestSupport
@testable import Journal

@Suite("Round trips", .timeLimit(.minutes(3)))
struct RoundTripTests {
    @Test("records come back with their sequence, kind, time and payload; each segment starts with a snapshot")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let writer = try JournalWriter(directory: directory.path, options: TestJournal.options(), snapshot: TestJournal.snapshot)
        let sequences = try TestJournal.appendRecords(writer, count: 300)
        try writer.close()

        let (records, tornTail) = try TestJournal.readAll(directory.path)
        #expect(tornTail == nil)
        let application = TestJournal.applicationRecords(records)
        #expect(application.map(\.sequence) == sequences)
        for (index, record) in application.enumerated() {
            #expect(record.payload == TestJournal.payload(index))
            #expect(record.timestamp == TestJournal.time(index))
            #expect(record.kind == UInt32(16 + index % 3))
        }
        // Sequence numbers are dense across snapshots and segments.
        #expect(records.map(\.sequence) == Array(1...UInt64(records.count)))
        let reader = try JournalReader(directory: directory.path)
        #expect(reader.segments.count > 2)
        for segment in reader.segments {
            let first = try #require(try reader.records(from: segment.baseSequence).next())
            #expect(first.isSnapshot)
            #expect(first.sequence == segment.baseSequence)
        }
    }

    @Test("empty payloads, large payloads, negative and backward time deltas")
    func edgeRecords() throws {
        let directory = TemporaryDirectory()
        var options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 4096)
        options.maxRecordBytes = 100_000
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        let big = (0..<90_000).map { UInt8(truncatingIfNeeded: $0 * 7919) }
        let times: [Int64] = [0, -5, 1_000_000, 999_999, Int64.max / 2, -Int64.max / 2]
        for (index, time) in times.enumerated() {
            try writer.append(kind: UInt32.max, timestamp: JournalTime(microsecondsSince1970: time), payload: index % 2 == 0 ? [] : big)
        }
        try writer.close()
        let records = TestJournal.applicationRecords(try TestJournal.readAll(directory.path).records)
        #expect(records.map(\.timestamp.microsecondsSince1970) == times)
        #expect(records.map(\.payload.count) == [0, 90_000, 0, 90_000, 0, 90_000])
        #expect(records.allSatisfy { $0.kind == UInt32.max })
        #expect(records[1].payload == big)
    }

    @Test("a record over the limit is refused and changes nothing")
    func recordTooLarge() throws {
        let directory = TemporaryDirectory()
        let writer = try JournalWriter(directory: directory.path, options: TestJournal.options(), snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 3)
        #expect(throws: JournalError.recordTooLarge(bytes: (1 << 20) + 3, limit: 1 << 20)) {
            try writer.append(kind: 16, timestamp: TestJournal.time(0), payload: [UInt8](repeating: 1, count: (1 << 20) + 1))
        }
        #expect(throws: JournalError.reservedKind(1)) {
            try writer.append(kind: 1, timestamp: TestJournal.time(0), payload: [1])
        }
        try TestJournal.appendRecords(writer, count: 3, startingAt: 3)
        try writer.close()
        let records = TestJournal.applicationRecords(try TestJournal.readAll(directory.path).records)
        #expect(records.map(\.payload) == (0..<6).map(TestJournal.payload))
    }

    @Test("reopening continues the sequence in the same segment after a clean close")
    func reopenContinues() throws {
        let directory = TemporaryDirectory()
        do {
            let writer = try JournalWriter(directory: directory.path, options: TestJournal.options(segmentBytes: 1 << 20), snapshot: TestJournal.snapshot)
            try TestJournal.appendRecords(writer, count: 10)
            try writer.close()
        }
        let writer = try JournalWriter(directory: directory.path, options: TestJournal.options(segmentBytes: 1 << 20), snapshot: TestJournal.snapshot)
        #expect(writer.recovery.tornTail == nil)
        #expect(writer.recovery.lastSequence == 11)
        #expect(writer.lastSequence == 11)
        let next = try writer.append(kind: 16, timestamp: TestJournal.time(10), payload: TestJournal.payload(10))
        #expect(next == 12)
        try writer.close()
        let reader = try JournalReader(directory: directory.path)
        #expect(reader.segments.count == 1)
        #expect(try TestJournal.readAll(directory.path).records.count == 12)
        #expect(reader.verify().isClean)
    }

    @Test("files are created with mode 0600")
    func fileModes() throws {
        let directory = TemporaryDirectory()
        let writer = try JournalWriter(directory: directory.path + "/nested/journal", options: TestJournal.options(), snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 50)
        try writer.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/nested/journal")
        #expect(!names.isEmpty)
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/nested/journal/" + name)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
        }
    }

    @Test("the journal id and producer are in every header")
    func headers() throws {
        let directory = TemporaryDirectory()
        var options = TestJournal.options()
        options.producer = "engagement-sdk/9.9 test"
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 100)
        try writer.close()
        let reader = try JournalReader(directory: directory.path)
        #expect(reader.journalID == options.journalID)
        for segment in reader.segments {
            #expect(segment.header?.producer == "engagement-sdk/9.9 test")
            #expect(segment.header?.baseSequence == segment.baseSequence)
            // Each follows on from the one before: labelled 1.3, whose bytes it has.
            #expect(segment.header?.version == SegmentFormat.continuousSegmentVersion)
            #expect(segment.header?.continuesFrom == nil)
        }
    }

    @Test("a header that says where its segment continues from reads back (1.4), and may not name its own base or later")
    func declarationBelowBase() throws {
        var header = SegmentHeader(journalID: UUID(), baseSequence: 9, baseTime: TestJournal.time(0), createdMonotonicNanoseconds: 0,
                                   maxRecordsPerFrame: 64, maxRecordBytes: 4096, producer: "test", continuesFrom: 7)
        let (decoded, _) = try header.encoded().withUnsafeBytes { try SegmentHeader.decode(from: $0) }
        #expect(decoded == header && decoded.version == SegmentFormat.skipDeclaringVersion)
        header.continuesFrom = 9
        #expect(throws: SegmentHeader.DecodingError.self) { _ = try header.encoded().withUnsafeBytes { try SegmentHeader.decode(from: $0) } }
    }
}
