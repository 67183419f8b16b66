import Foundation
import Testing
@testable import Journal

/// Retention by age and erasure: which segments go, what the journal holds after, and that it
/// goes on numbering.
@Suite("Retention and erasure", .timeLimit(.minutes(1)))
struct RetentionTests {
    static let day: Int64 = 86_400_000_000

    /// `count` records, one a day from `firstDay`, each alone in its group.
    static func appendDaily(_ writer: JournalWriter, days: Range<Int>) throws {
        for day in days {
            let time = JournalTime(microsecondsSince1970: 1_700_000_000_000_000 + Int64(day) * Self.day)
            try writer.rotateIfNeeded(time: time, snapshot: TestJournal.snapshot)
            try writer.append(kind: 16, timestamp: time, payload: TestJournal.payload(day))
        }
    }

    static func at(day: Int) -> JournalTime {
        JournalTime(microsecondsSince1970: 1_700_000_000_000_000 + Int64(day) * Self.day)
    }

    @Test("segments whose records are all older than the age go; no younger record does; the writing segment is begun anew at half the age")
    func removesByAge() throws {
        let storage = InMemoryStorage()
        var options = TestJournal.options(segmentBytes: 1024, storage: storage)
        options.rotation = .onRequest
        let writer = try JournalWriter(directory: "/r", options: options, snapshot: TestJournal.snapshot)
        try Self.appendDaily(writer, days: 0..<400)
        _ = try writer.sync()
        let before = try JournalReader(directory: "/r", storage: storage).readAll().records
        #expect(before.first?.timestamp == Self.at(day: 0))

        let removed = try writer.removeSegments(olderThan: .seconds(10 * 86_400), at: Self.at(day: 400), snapshot: TestJournal.snapshot)
        _ = try writer.sync()
        #expect(removed > 0)
        let after = try JournalReader(directory: "/r", storage: storage).readAll().records
        let kept = TestJournal.applicationRecords(after)
        #expect(!kept.contains { $0.timestamp == Self.at(day: 0) }, "the oldest records went")
        for day in 390..<400 { #expect(kept.contains { $0.timestamp == Self.at(day: day) }, "day \(day) is younger than the age: kept") }
        #expect(after.first?.isSnapshot == true, "what is left begins at a snapshot")
        #expect(after.map(\.sequence) == Array(after.first!.sequence...after.last!.sequence), "numbering is unbroken")

        let again = try writer.removeSegments(olderThan: .seconds(10 * 86_400), at: Self.at(day: 400), snapshot: TestJournal.snapshot)
        #expect(again == 0, "asked again at the same time, nothing more goes")
    }

    @Test("a reopened journal reads its old segments' times from their headers when age retention first asks")
    func reopened() throws {
        let storage = InMemoryStorage()
        var options = TestJournal.options(segmentBytes: 1024, storage: storage)
        options.rotation = .onRequest
        let first = try JournalWriter(directory: "/o", options: options, snapshot: TestJournal.snapshot)
        try Self.appendDaily(first, days: 0..<400)
        try first.close()
        let writer = try JournalWriter(directory: "/o", options: options, snapshot: TestJournal.snapshot)
        let removed = try writer.removeSegments(olderThan: .seconds(10 * 86_400), at: Self.at(day: 400), snapshot: TestJournal.snapshot)
        _ = try writer.sync()
        #expect(removed > 0)
        let kept = TestJournal.applicationRecords(try JournalReader(directory: "/o", storage: storage).readAll().records)
        for day in 390..<400 { #expect(kept.contains { $0.timestamp == Self.at(day: day) }, "day \(day) is younger than the age: kept") }
        #expect(!kept.contains { $0.timestamp == Self.at(day: 0) })
    }

    @Test("a quiet journal of one old segment is begun anew, then the old one ages out")
    func quietJournal() throws {
        let storage = InMemoryStorage()
        var options = TestJournal.options(segmentBytes: 1 << 20, storage: storage)
        options.rotation = .onRequest
        let writer = try JournalWriter(directory: "/q", options: options, snapshot: TestJournal.snapshot)
        try Self.appendDaily(writer, days: 0..<3)
        try writer.removeSegments(olderThan: .seconds(4 * 86_400), at: Self.at(day: 3), snapshot: TestJournal.snapshot)
        #expect(storage.fileNames(in: "/q").filter { $0.hasSuffix(".lz4") }.count == 2, "begun anew: half the age passed")
        try Self.appendDaily(writer, days: 8..<9)
        try writer.removeSegments(olderThan: .seconds(4 * 86_400), at: Self.at(day: 8), snapshot: TestJournal.snapshot)
        _ = try writer.sync()
        let kept = TestJournal.applicationRecords(try JournalReader(directory: "/q", storage: storage).readAll().records)
        #expect(kept.map(\.timestamp) == [Self.at(day: 8)], "the first segment's records were all older than the age")
    }

    @Test("eraseAll deletes every record before it; the journal goes on from the snapshot it is given")
    func erases() throws {
        let storage = InMemoryStorage()
        var options = TestJournal.options(segmentBytes: 1024, storage: storage)
        options.rotation = .onRequest
        let writer = try JournalWriter(directory: "/e", options: options, snapshot: TestJournal.snapshot)
        try Self.appendDaily(writer, days: 0..<200)
        let last = writer.lastSequence
        let erasure = try writer.eraseAll(time: Self.at(day: 20)) { _ in Array("after erasure".utf8) }
        #expect(erasure.firstSequence == 1 && erasure.lastSequence == last && erasure.records == last)
        #expect(erasure.segments > 1 && erasure.bytes > 0)
        try writer.append(kind: 16, timestamp: Self.at(day: 21), payload: Array("new".utf8))
        _ = try writer.sync()
        let records = try JournalReader(directory: "/e", storage: storage).readAll().records
        #expect(records.map { String(decoding: $0.payload, as: UTF8.self) } == ["after erasure", "new"])
        #expect(records.first?.sequence == last + 1, "numbering goes on after what was erased")
        #expect(storage.fileNames(in: "/e").filter { $0.hasSuffix(".lz4") }.count == 1)
        #expect(!storage.fileNames(in: "/e").contains { $0.hasSuffix(".idx") && !$0.contains(String(format: "%020llu", last + 1)) })
    }
}
