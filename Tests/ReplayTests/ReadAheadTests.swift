import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `FactStream` reads and decodes on a thread of its own (`ReadAheadDecoder`); what it hands out
/// must be what reading on the calling thread gives, in order, with errors in the same place.
@Suite("reading ahead on a second thread", .timeLimit(.minutes(3)))
struct ReadAheadTests {
    typealias J = CraftedJournal

    /// A journal of `calls` setEmail calls (three records each) in many small segments (read
    /// ahead on a thread), or with `oneSegment` in one small segment (read on the calling
    /// thread, ``ReadAheadDecoder/readsInline(_:)``).
    static func journal(calls: UInt64, oneSegment: Bool = false) throws -> String {
        let path = ReplayHarness.temporaryDirectory()
        let journal = try CraftedJournal(directory: path, segmentBytes: oneSegment ? 1 << 20 : 8192)
        try journal.append(.callReceived(J.received(1, .initialize(J.us))))
        try journal.append(.initialized(project: J.us, generation: 1))
        for number in UInt64(2)..<(calls + 2) {
            try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
            try journal.append(.identityChanged(email: "user\(number)@example.com", userID: nil))
            try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            if !oneSegment { try journal.rotate() }
        }
        try journal.close()
        return path
    }

    /// What a cursor and the decoder give on this thread: each record, and the error that ended
    /// the reading (nil when it ended normally).
    private func direct(_ reader: JournalReader, from sequence: UInt64? = nil) -> (records: [DecodedRecord], error: JournalError?, tail: Damage?) {
        var records: [DecodedRecord] = []
        let cursor: RecordCursor
        do { cursor = try reader.records(from: sequence) } catch { return ([], error as? JournalError, nil) }
        do {
            while let view = try cursor.nextView() { records.append(RecordDecoder.decode(view)) }
        } catch {
            return (records, error as? JournalError, nil)
        }
        return (records, nil, cursor.tornTail)
    }

    /// What a ``FactStream`` gives: read ahead on its thread, or with `readsAhead` false on this
    /// one (a worker of a fold side by side).
    private func readAhead(_ reader: JournalReader, from sequence: UInt64? = nil,
                           readsAhead: Bool = true) throws -> (records: [DecodedRecord], error: JournalError?, tail: Damage?) {
        let stream = try FactStream(reader: reader, from: sequence, readsAhead: readsAhead)
        var records: [DecodedRecord] = []
        do {
            while let record = try stream.next() { records.append(record) }
        } catch {
            return (records, error as? JournalError, stream.tornTail)
        }
        return (records, nil, stream.tornTail)
    }

    private func same(_ left: [DecodedRecord], _ right: [DecodedRecord]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { a, b in
            guard a.sequence == b.sequence, a.time == b.time, a.kind == b.kind, a.payloadBytes == b.payloadBytes else { return false }
            switch (a.content, b.content) {
            case (.snapshot(let x), .snapshot(let y)): return x == y
            case (.fact(let x), .fact(let y)): return x == y
            case (.unreadable(let x), .unreadable(let y)): return x == y
            default: return false
            }
        }
    }

    @Test("every record, in order, more than the read-ahead holds, from the start and from any sequence")
    func sameRecordsInOrder() throws {
        let path = try Self.journal(calls: 1500)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JournalReader(directory: path)
        let all = direct(reader)
        #expect(all.records.count > ReadAheadDecoder.chunkSize * (ReadAheadDecoder.chunksAhead + 2))
        #expect(reader.segments.count > 3)
        for readsAhead in [true, false] {
            let ahead = try readAhead(reader, readsAhead: readsAhead)
            #expect(same(ahead.records, all.records), "reads ahead: \(readsAhead)")
            #expect(ahead.error == nil && ahead.tail == nil)
            for start in [UInt64(1), 2, 129, 1000, 3001, UInt64(all.records.count)] {
                #expect(same(try readAhead(reader, from: start, readsAhead: readsAhead).records, direct(reader, from: start).records),
                        "from \(start), reads ahead: \(readsAhead)")
            }
        }
    }

    @Test("corruption throws after exactly the records before it, with the same location")
    func corruptionInPlace() throws {
        let path = try Self.journal(calls: 1500)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let names = try JournalReader(directory: path).segments.map(\.name)
        let damaged = path + "/" + names[names.count / 2]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let reader = try JournalReader(directory: path)
        let expected = direct(reader)
        let error = try #require(expected.error)
        guard case .corrupted(let damage) = error else { Issue.record("expected corruption, got \(error)"); return }
        #expect(damage.segment == names[names.count / 2])
        for readsAhead in [true, false] {
            let ahead = try readAhead(reader, readsAhead: readsAhead)
            #expect(ahead.error == error, "reads ahead: \(readsAhead)")
            #expect(same(ahead.records, expected.records), "reads ahead: \(readsAhead)")
        }
    }

    @Test("a torn tail ends the stream and is reported once the end is reached")
    func tornTail() throws {
        let path = try Self.journal(calls: 400)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let last = try #require(try JournalReader(directory: path).segments.last).name
        let handle = try #require(FileHandle(forUpdatingAtPath: path + "/" + last))
        let length = try handle.seekToEnd()
        try handle.truncate(atOffset: length - 5)
        try handle.close()
        let reader = try JournalReader(directory: path)
        let expected = direct(reader)
        #expect(expected.error == nil)
        let tail = try #require(expected.tail)
        for readsAhead in [true, false] {
            let ahead = try readAhead(reader, readsAhead: readsAhead)
            #expect(same(ahead.records, expected.records), "reads ahead: \(readsAhead)")
            #expect(ahead.tail == tail, "reads ahead: \(readsAhead)")
        }
        // Not reached yet: not reported.
        let early = try FactStream(reader: reader)
        _ = try early.next()
        #expect(early.tornTail == nil)
    }

    @Test("a stream dropped after one record stops its thread")
    func droppedEarly() throws {
        let path = try Self.journal(calls: 1500)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JournalReader(directory: path)
        for _ in 0..<20 {
            let stream = try FactStream(reader: reader)
            #expect(try stream.next()?.sequence == 1)
        }
    }

    @Test("a small journal read on the calling thread: the same records, errors and torn tail")
    func smallJournalInline() throws {
        let path = try Self.journal(calls: 600, oneSegment: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = try JournalReader(directory: path)
        #expect(ReadAheadDecoder.readsInline(reader))
        let all = direct(reader)
        #expect(all.records.count > ReadAheadDecoder.chunkSize * (ReadAheadDecoder.chunksAhead + 2))
        #expect(same(try readAhead(reader).records, all.records))
        for start in [UInt64(1), 129, 1000, UInt64(all.records.count)] {
            #expect(same(try readAhead(reader, from: start).records, direct(reader, from: start).records), "from \(start)")
        }
        // Damaged in the middle: the records before it, then the same error.
        let segment = path + "/" + reader.segments[0].name
        let original = try Data(contentsOf: URL(fileURLWithPath: segment))
        var bytes = original
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: segment))
        reader = try JournalReader(directory: path)
        let expected = direct(reader)
        let error = try #require(expected.error)
        let ahead = try readAhead(reader)
        #expect(ahead.error == error)
        #expect(same(ahead.records, expected.records))
        // Torn: the records before the tear, and the tail once the end is reached.
        try original.prefix(original.count - 5).write(to: URL(fileURLWithPath: segment))
        reader = try JournalReader(directory: path)
        let torn = direct(reader)
        let tail = try #require(torn.tail)
        let stream = try FactStream(reader: reader)
        _ = try stream.next()
        #expect(stream.tornTail == nil)
        let read = try readAhead(reader)
        #expect(same(read.records, torn.records))
        #expect(read.tail == tail)
    }
}
