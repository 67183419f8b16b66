import Journal
import Testing

@Suite("Writer: record batches", .timeLimit(.minutes(2)))
struct RecordBatchTests {
    @Test("a RecordBatch holds each record's kind and payload, in order, and empties for reuse")
    func holdsRecordsInOrder() {
        var batch = RecordBatch()
        batch.append(kind: 16, payload: [1, 2, 3])
        batch.append(kind: 17) { $0.append(contentsOf: [4, 5]) }
        batch.append(kind: 18, payload: [])
        [UInt8]([6, 7, 8]).withUnsafeBufferPointer { batch.append(kind: 20, payloadBytes: $0) }
        #expect(batch.count == 4)
        #expect(batch.kinds == [16, 17, 18, 20])
        #expect(Array(batch.payloads[batch.payloadRange(0)]) == [1, 2, 3])
        #expect(Array(batch.payloads[batch.payloadRange(1)]) == [4, 5])
        #expect(batch.payloadRange(2).isEmpty)
        #expect(Array(batch.payloads[batch.payloadRange(3)]) == [6, 7, 8])
        batch.removeAll()
        #expect(batch.isEmpty && batch.payloads.isEmpty)
        batch.append(kind: 19, payload: [9])
        #expect(Array(batch.payloads[batch.payloadRange(0)]) == [9])
        // Emptied again, its storage kept: the bytes and kinds of earlier records never show
        // through, whichever way the next records are appended.
        batch.removeAll()
        [UInt8]([5, 5]).withUnsafeBufferPointer { batch.append(kind: 21, payloadBytes: $0) }
        batch.append(kind: 22) { $0.append(7) }
        [UInt8]([]).withUnsafeBufferPointer { batch.append(kind: 23, payloadBytes: $0) }
        #expect(batch.count == 3 && batch.kinds == [21, 22, 23] && batch.ends == [2, 3, 3])
        #expect(Array(batch.payloads) == [5, 5, 7])
    }

    @Test("appending a RecordBatch journals the same records as appending them as pairs")
    func sameRecordsAsPairs() throws {
        func journal(_ append: (JournalWriter, [(kind: UInt32, payload: [UInt8])], JournalTime) throws -> Void) throws -> [JournalRecord] {
            let storage = InMemoryStorage()
            let options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1024, groupRecords: 4, storage: storage)
            let writer = try JournalWriter(directory: "/r", options: options, snapshot: TestJournal.snapshot)
            for step in 0..<40 {
                let records = (0..<(1 + step % 5)).map { (kind: UInt32(16 + $0), payload: Array("r\(step)-\($0)".utf8) + TestJournal.payload(step)) }
                try append(writer, records, TestJournal.time(step))
            }
            try writer.close()
            return try JournalReader(directory: "/r", storage: storage).readAll().records.filter { !$0.isSnapshot }
        }
        let asPairs = try journal { writer, records, time in _ = try writer.appendBatch(records, timestamp: time) }
        var reused = RecordBatch()
        let asBatch = try journal { writer, records, time in
            reused.removeAll()
            for record in records { reused.append(kind: record.kind, payload: record.payload) }
            _ = try writer.appendBatch(reused, timestamp: time)
        }
        #expect(asPairs.count == (0..<40).reduce(0) { $0 + 1 + $1 % 5 })
        #expect(asPairs == asBatch)
    }

    @Test("a batch with a reserved kind is refused whole, naming the kind")
    func reservedKindRefused() throws {
        let storage = InMemoryStorage()
        let options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1024, groupRecords: 4, storage: storage)
        let writer = try JournalWriter(directory: "/k", options: options, snapshot: TestJournal.snapshot)
        var batch = RecordBatch()
        batch.append(kind: 16, payload: [1])
        batch.append(kind: 1, payload: [2])
        let before = writer.lastSequence
        #expect(throws: JournalError.reservedKind(1)) { try writer.appendBatch(batch, timestamp: TestJournal.time(0)) }
        #expect(writer.lastSequence == before)
        try writer.close()
        #expect(try JournalReader(directory: "/k", storage: storage).readAll().records.allSatisfy { $0.kind != 16 })
    }
}
