import Dispatch
import Foundation
import SDKTesting
import Testing
@testable import Journal
import Locking
import TestSupport

@Suite("Writer: concurrency, group commit, rotation, retention", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct WriterTests {
    @Test("concurrent appenders: every record present once, each thread's records in its own order")
    func concurrentAppenders() throws {
        let directory = TemporaryDirectory()
        var options = TestJournal.options(segmentBytes: 64 << 10, frameBytes: 8192, groupRecords: 16)
        options.groupCommit = GroupCommit(maxRecords: 16, maxDelay: .milliseconds(1), synchronizesEachGroup: false)
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        let threads = 4
        let perThread = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let payload = Array("t\(thread)-\(index)".utf8)
                _ = try? writer.append(kind: 16 + UInt32(thread), timestamp: TestJournal.time(index), payload: payload)
            }
        }
        try writer.close()
        let records = TestJournal.applicationRecords(try TestJournal.readAll(directory.path).records)
        #expect(records.count == threads * perThread)
        for thread in 0..<threads {
            let mine = records.filter { $0.kind == 16 + UInt32(thread) }.map { String(decoding: $0.payload, as: UTF8.self) }
            #expect(mine == (0..<perThread).map { "t\(thread)-\($0)" })
        }
        #expect(try JournalReader(directory: directory.path).verify().isClean)
    }

    @Test("flush returns once everything appended before it is durable")
    func flushIsDurable() async throws {
        let directory = TemporaryDirectory()
        var options = TestJournal.options()
        options.groupCommit = GroupCommit(maxRecords: 1000, maxDelay: .seconds(3600), synchronizesEachGroup: true)
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        let sequences = try TestJournal.appendRecords(writer, count: 10)
        #expect(writer.durableSequence < sequences.last!, "nothing forces the group out yet")
        let durable = try await writer.flush()
        #expect(durable >= sequences.last!)
        #expect(writer.durableSequence >= sequences.last!)
        try writer.close()
    }

    @Test("the record bound cuts and syncs a group without a flush")
    func recordBound() async throws {
        let directory = TemporaryDirectory()
        var options = TestJournal.options()
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: .seconds(3600), synchronizesEachGroup: true)
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        // The snapshot plus three records make the first group of four.
        let sequences = try TestJournal.appendRecords(writer, count: 3)
        let durable = try await writer.whenDurable(through: sequences.last!)
        #expect(durable >= sequences.last!)
        let more = try TestJournal.appendRecords(writer, count: 2, startingAt: 3)
        #expect(writer.durableSequence < more.last!, "a group of two waits for its bounds")
        try writer.close()
    }

    @Test("the time bound cuts and syncs a group without a flush")
    func timeBound() async throws {
        let directory = TemporaryDirectory()
        var options = TestJournal.options()
        options.groupCommit = GroupCommit(maxRecords: 1000, maxDelay: .milliseconds(1), synchronizesEachGroup: true)
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        let sequence = try writer.append(kind: 16, timestamp: TestJournal.time(0), payload: [1, 2, 3])
        let durable = try await writer.whenDurable(through: sequence)
        #expect(durable >= sequence)
        try writer.close()
    }

    @Test("without a group-commit thread the journal's bytes depend only on the calls")
    func deterministicBytes() throws {
        func build() throws -> [String: [UInt8]] {
            let storage = InMemoryStorage()
            let options = TestJournal.options(segmentBytes: 2048, storage: storage)
            let writer = try JournalWriter(directory: "/j", options: options, snapshot: TestJournal.snapshot)
            try TestJournal.appendRecords(writer, count: 100)
            try writer.sync()
            try TestJournal.appendRecords(writer, count: 50, startingAt: 100)
            try writer.close()
            return Dictionary(uniqueKeysWithValues: storage.fileNames(in: "/j").map { ($0, storage.bytes(of: "/j/" + $0)!) })
        }
        #expect(try build() == build())
    }

    @Test("retention drops whole old segments; what remains starts with a snapshot and reads on its own")
    func retention() throws {
        let directory = TemporaryDirectory()
        let options = TestJournal.options(segmentBytes: 2048, frameBytes: 1024, retainedBytes: 6144)
        let writer = try JournalWriter(directory: directory.path, options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 600)
        try writer.close()
        let reader = try JournalReader(directory: directory.path)
        let total = reader.segments.reduce(0) { $0 + $1.bytes }
        #expect(total <= 6144 + 2048)
        #expect(reader.segments.count >= 2)
        let records = try TestJournal.readAll(directory.path).records
        #expect(records.first?.isSnapshot == true)
        #expect(records.first?.sequence == reader.segments.first?.baseSequence)
        #expect(records.first.map { String(decoding: $0.payload, as: UTF8.self) } == "snapshot@\(records.first!.sequence):rotation")
        #expect(records.last?.payload == TestJournal.payload(599))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasSuffix(".idx") }.count == reader.segments.count, "index files go with their segments")
    }

    @Test("a failed write stops the writer: the append throws and so does every later one")
    func failedWrite() throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let options = TestJournal.options(storage: storage)
        let writer = try JournalWriter(directory: "/f", options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 3)
        storage.fillDisk(halfWritten: false)
        #expect(throws: JournalError.self) { try TestJournal.appendRecords(writer, count: 10) }
        storage.repair()
        #expect {
            try writer.append(kind: 16, timestamp: TestJournal.time(0), payload: [1])
        } throws: { error in
            if case JournalError.failed = error { true } else { false }
        }
    }
}


@Suite("Writer: rotation on request", .timeLimit(.minutes(3)))
struct RotationOnRequestTests {
    @Test("with rotation on request, segments begin only when asked, each with the snapshot given then")
    func rotationOnRequest() throws {
        let storage = InMemoryStorage()
        var options = TestJournal.options(segmentBytes: 1024, storage: storage)
        options.rotation = .onRequest
        let writer = try JournalWriter(directory: "/r", options: options, snapshot: nil)
        #expect(throws: JournalError.self) { try TestJournal.appendRecords(writer, count: 1) }
        var state = 0
        for bundle in 0..<40 {
            try writer.rotateIfNeeded(time: TestJournal.time(bundle * 5)) { request in Array("state=\(state) at \(request.sequence)".utf8) }
            // A bundle of five related records is never split by a rotation.
            try TestJournal.appendRecords(writer, count: 5, startingAt: bundle * 5)
            state += 5
        }
        try writer.close()
        let reader = try JournalReader(directory: "/r", storage: storage)
        #expect(reader.segments.count > 2)
        let records = try reader.readAll().records
        var counted = 0
        for record in records {
            if record.isSnapshot {
                #expect(String(decoding: record.payload, as: UTF8.self) == "state=\(counted) at \(record.sequence)")
            } else {
                counted += 1
            }
        }
        #expect(counted == 200)
    }

    @Test("the record bound counts records as they are appended, not as their groups are written")
    func recordBoundCountsAppendedRecords() throws {
        let storage = InMemoryStorage()
        // Groups of up to 256 records (nothing is written until one is cut), segments of 32.
        var options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1 << 16, groupRecords: 256, storage: storage)
        options.maxGroupBytes = 1 << 15
        options.rotation = .onRequest
        options.segmentRecords = 32
        let writer = try JournalWriter(directory: "/b", options: options, snapshot: nil)
        var snapshots: [UInt64] = []
        for bundle in 0..<40 {
            try writer.rotateIfNeeded(time: TestJournal.time(bundle * 3)) { request in
                snapshots.append(request.sequence)
                return Array("at \(request.sequence)".utf8)
            }
            try TestJournal.appendRecords(writer, count: 3, startingAt: bundle * 3)
        }
        try writer.close()
        // A snapshot, then eleven bundles of three: the first bundle that reaches 32 records
        // makes the rotation due, and the next bundle begins a segment.
        #expect(snapshots == [1, 35, 69, 103])
        let reader = try JournalReader(directory: "/b", storage: storage)
        #expect(reader.segments.map(\.baseSequence) == snapshots)
        #expect(try reader.readAll().records.count == 124)
    }
}

@Suite("Writer: a rotation put off while the snapshot is large", .timeLimit(.minutes(3)))
struct RotationWaitTests {
    /// A writer that rotates on request after 32 records, with a large byte bound.
    private func writer(_ storage: InMemoryStorage) throws -> JournalWriter {
        var options = TestJournal.options(segmentBytes: 1 << 20, storage: storage)
        options.rotation = .onRequest
        options.segmentRecords = 32
        return try JournalWriter(directory: "/w", options: options, snapshot: nil)
    }

    /// Appends `count` records one by one, asking for a rotation before each; `large(sequence)`
    /// answers whether the snapshot would be large. Returns the sequences the snapshots took.
    private func appendAsking(_ writer: JournalWriter, count: Int, asked: inout [UInt64],
                              large: (UInt64) -> Bool) throws -> [UInt64] {
        var snapshots: [UInt64] = []
        for index in 0..<count {
            let next = writer.lastSequence + 1
            try writer.rotateIfNeeded(time: TestJournal.time(index), snapshotIsLarge: { asked.append(next); return large(next) }) { request in
                snapshots.append(request.sequence)
                return Array("at \(request.sequence)".utf8)
            }
            try TestJournal.appendRecords(writer, count: 1, startingAt: index)
        }
        return snapshots
    }

    @Test("while the snapshot is large, a due rotation waits, up to twice the segment's records")
    func waitsUpToTwiceTheBound() throws {
        let storage = InMemoryStorage()
        let writer = try writer(storage)
        var asked: [UInt64] = []
        let snapshots = try appendAsking(writer, count: 100, asked: &asked) { _ in true }
        try writer.close()
        // The first segment begins at once; the second once the first holds 64 records (twice
        // 32), not 32.
        #expect(snapshots == [1, 65])
        // Asked only while a rotation was due for the segment's size and could still wait: the
        // first segment from 33 to 64, the second (base 65) from 97 on.
        #expect(asked == Array(33...64) + Array(97...102))
        let reader = try JournalReader(directory: "/w", storage: storage)
        #expect(reader.segments.count == 2)
        #expect(try reader.readAll().records.count == 102)
    }

    @Test("a rotation that waited begins at the first moment its snapshot is small")
    func beginsOnceSmall() throws {
        let storage = InMemoryStorage()
        let writer = try writer(storage)
        var asked: [UInt64] = []
        // Large from sequence 20 to 49, small otherwise: the rotation due at 33 waits until 50.
        let snapshots = try appendAsking(writer, count: 60, asked: &asked) { (20..<50).contains($0) }
        try writer.close()
        #expect(snapshots == [1, 50])
        #expect(asked == Array(33...50))
    }

    @Test("a small snapshot, or none asked for, rotates at the bound as before")
    func smallRotatesAtTheBound() throws {
        let storage = InMemoryStorage()
        let writer = try writer(storage)
        var asked: [UInt64] = []
        let snapshots = try appendAsking(writer, count: 70, asked: &asked) { _ in false }
        try writer.close()
        #expect(snapshots == [1, 33, 65])
        #expect(asked == [33, 65])
    }
}

@Suite("Writer: atomic bundles", .timeLimit(.minutes(3)))
struct BatchTests {
    @Test("a bundle is never split: cut anywhere, the reader sees all of a bundle or none of it")
    func batchesAreAtomic() throws {
        let storage = InMemoryStorage()
        let options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1024, groupRecords: 4, storage: storage)
        let writer = try JournalWriter(directory: "/b", options: options, snapshot: TestJournal.snapshot)
        var bundles: [[UInt64]] = []
        for bundle in 0..<30 {
            let size = 1 + bundle % 7
            let records = (0..<size).map { (kind: UInt32(16), payload: Array("b\(bundle)-\($0)".utf8) + TestJournal.payload(bundle)) }
            let last = try writer.appendBundle(records, timestamp: TestJournal.time(bundle))
            bundles.append(Array((last - UInt64(size) + 1)...last))
        }
        try writer.close()
        let name = try #require(storage.fileNames(in: "/b").first { $0.hasSuffix(".lz4") })
        let bytes = try #require(storage.bytes(of: "/b/" + name))
        for cut in stride(from: 0, through: bytes.count, by: 3) {
            let copy = InMemoryStorage()
            try copy.createDirectory(at: "/b")
            copy.setBytes(Array(bytes.prefix(cut)), of: "/b/" + name)
            let present = Set(try JournalReader(directory: "/b", storage: copy).readAll().records.map(\.sequence))
            for bundle in bundles {
                let kept = bundle.filter(present.contains).count
                #expect(kept == 0 || kept == bundle.count, "cut at \(cut) split a bundle")
            }
        }
    }
}
