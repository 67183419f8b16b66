import Journal
import Testing

@Suite("Writer: record bundles", .timeLimit(.minutes(2)))
struct RecordBundleTests {
    @Test("a RecordBundle holds each record's kind and payload, in order, and empties for reuse")
    func holdsRecordsInOrder() {
        var bundle = RecordBundle()
        bundle.append(kind: 16, payload: [1, 2, 3])
        bundle.append(kind: 17) { $0.append(contentsOf: [4, 5]) }
        bundle.append(kind: 18, payload: [])
        [UInt8]([6, 7, 8]).withUnsafeBufferPointer { bundle.append(kind: 20, payloadBytes: $0) }
        #expect(bundle.count == 4)
        #expect(bundle.kinds == [16, 17, 18, 20])
        #expect(Array(bundle.payloads[bundle.payloadRange(0)]) == [1, 2, 3])
        #expect(Array(bundle.payloads[bundle.payloadRange(1)]) == [4, 5])
        #expect(bundle.payloadRange(2).isEmpty)
        #expect(Array(bundle.payloads[bundle.payloadRange(3)]) == [6, 7, 8])
        bundle.removeAll()
        #expect(bundle.isEmpty && bundle.payloads.isEmpty)
        bundle.append(kind: 19, payload: [9])
        #expect(Array(bundle.payloads[bundle.payloadRange(0)]) == [9])
        // Emptied again, its storage kept: the bytes and kinds of earlier records never show
        // through, whichever way the next records are appended.
        bundle.removeAll()
        [UInt8]([5, 5]).withUnsafeBufferPointer { bundle.append(kind: 21, payloadBytes: $0) }
        bundle.append(kind: 22) { $0.append(7) }
        [UInt8]([]).withUnsafeBufferPointer { bundle.append(kind: 23, payloadBytes: $0) }
        #expect(bundle.count == 3 && bundle.kinds == [21, 22, 23] && bundle.ends == [2, 3, 3])
        #expect(Array(bundle.payloads) == [5, 5, 7])
    }

    @Test("appending a RecordBundle journals the same records as appending them as pairs")
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
        let asPairs = try journal { writer, records, time in _ = try writer.appendBundle(records, timestamp: time) }
        var reused = RecordBundle()
        let asBatch = try journal { writer, records, time in
            reused.removeAll()
            for record in records { reused.append(kind: record.kind, payload: record.payload) }
            _ = try writer.appendBundle(reused, timestamp: time)
        }
        #expect(asPairs.count == (0..<40).reduce(0) { $0 + 1 + $1 % 5 })
        #expect(asPairs == asBatch)
    }

    @Test("a bundle with a reserved kind is refused whole, naming the kind")
    func reservedKindRefused() throws {
        let storage = InMemoryStorage()
        let options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1024, groupRecords: 4, storage: storage)
        let writer = try JournalWriter(directory: "/k", options: options, snapshot: TestJournal.snapshot)
        var bundle = RecordBundle()
        bundle.append(kind: 16, payload: [1])
        bundle.append(kind: 1, payload: [2])
        let before = writer.lastSequence
        #expect(throws: JournalError.reservedKind(1)) { try writer.appendBundle(bundle, timestamp: TestJournal.time(0)) }
        #expect(writer.lastSequence == before)
        try writer.close()
        #expect(try JournalReader(directory: "/k", storage: storage).readAll().records.allSatisfy { $0.kind != 16 })
    }
}
