import Foundation
import Locking
import SDKTesting
import Testing
@testable import Journal

/// What a writer that failed leaves, and what the next one makes of it: the records it numbered
/// that the journal does not hold, numbers never given twice, a tail made durable before it is
/// trusted (docs/FORMAT.md, "Sequence numbers a failed writer gave out"; docs/RELIABILITY.md).
@Suite("A failed writer: lost records, unused numbers, an unsynced tail", .timeLimit(.minutes(1)))
struct FailedWriterTests {
    static let directory = "/failed"

    /// A writer over `storage` without a group-commit thread: groups of 4, written when cut,
    /// synchronized only by `sync()`, `flush()`, a seal or `close()`.
    static func writer(_ storage: FailingSyncStorage<InMemoryStorage>) throws -> JournalWriter {
        try JournalWriter(directory: directory, options: TestJournal.options(storage: storage), snapshot: TestJournal.snapshot)
    }

    /// Every record a strict cursor returns (it throws at corruption).
    static func strictRecords(_ storage: InMemoryStorage) throws -> [JournalRecord] {
        let cursor = try JournalReader(directory: directory, storage: storage).records()
        var records: [JournalRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return records
    }

    /// A journal whose writer failed with two records staged: records through `durable` are
    /// durable, `durable + 1` and `durable + 2` were numbered and never written.
    static func failedWithStagedRecords() throws -> (storage: FailingSyncStorage<InMemoryStorage>, failed: JournalWriter, durable: UInt64) {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let failed = try writer(storage)
        try TestJournal.appendRecords(failed, count: 6)
        try failed.sync()
        let durable = failed.durableSequence
        try TestJournal.appendRecords(failed, count: 2, startingAt: 6)
        storage.fillDisk(halfWritten: false)
        #expect(throws: JournalError.self) { try failed.sync() }
        storage.repair()
        #expect(failed.lastSequence == durable + 2)
        return (storage, failed, durable)
    }

    @Test("a failed writer names the records it numbered past what the reopened journal holds; the next segment begins past them and reads on, strictly")
    func numbersAreNeverGivenTwice() throws {
        let (storage, failed, durable) = try Self.failedWithStagedRecords()
        let reopened = try Self.writer(storage)
        #expect(reopened.recovery.lastSequence == durable)

        let lost = try #require(failed.recordsHandedOut(after: durable))
        #expect(lost.sequences == durable + 1...durable + 2)
        #expect(lost.firstTime == TestJournal.time(6), "the first lost record's own time")
        #expect(lost.snapshots == 0)
        #expect(failed.recordsHandedOut(after: durable + 2) == nil)

        try reopened.beginSegment(time: TestJournal.time(10), skippingThrough: failed.lastSequence, snapshot: TestJournal.snapshot)
        let appended = try TestJournal.appendRecords(reopened, count: 3, startingAt: 20)
        try reopened.close()
        #expect(appended == [durable + 4, durable + 5, durable + 6], "the snapshot takes durable + 3, past every number the failed writer gave")

        let records = try Self.strictRecords(storage.memory)
        let sequences = records.map(\.sequence)
        #expect(Set(sequences).count == sequences.count)
        #expect(!sequences.contains(durable + 1) && !sequences.contains(durable + 2))
        #expect(Array(sequences.suffix(4)) == [durable + 3, durable + 4, durable + 5, durable + 6])
        let reader = try JournalReader(directory: Self.directory, storage: storage.memory)
        let header = try #require(reader.segments.last?.header)
        #expect(header.baseSequence == durable + 3 && header.continuesFrom == durable + 1)
        #expect(header.version == SegmentFormat.skipDeclaringVersion)
        #expect(reader.segments.dropLast().allSatisfy { $0.header?.version == SegmentFormat.continuousSegmentVersion })
        let report = reader.verify()
        #expect(report.isClean, "\(report)")
        #expect(report.abandoned == [durable + 1...durable + 2])
    }

    @Test("a snapshot that began a segment and was lost with it is counted apart from the other records")
    func lostSnapshotIsCounted() throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        var options = TestJournal.options(storage: storage)
        options.rotation = .onRequest
        let failed = try JournalWriter(directory: Self.directory, options: options, snapshot: nil)
        try failed.rotateIfNeeded(time: TestJournal.time(0), snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(failed, count: 3)
        try failed.beginSegment(time: TestJournal.time(3), snapshot: TestJournal.snapshot)
        let durable = failed.durableSequence
        try TestJournal.appendRecords(failed, count: 1, startingAt: 3)
        storage.fillDisk(halfWritten: false)
        #expect(throws: JournalError.self) { try failed.sync() }
        storage.repair()

        let reopened = try JournalWriter(directory: Self.directory, options: options, snapshot: nil)
        #expect(reopened.recovery.lastSequence == durable, "the new segment holds its header only")
        let lost = try #require(failed.recordsHandedOut(after: durable))
        #expect(lost.sequences == durable + 1...durable + 2 && lost.snapshots == 1 && lost.firstTime == TestJournal.time(3))

        try reopened.beginSegment(time: TestJournal.time(9), skippingThrough: failed.lastSequence, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(reopened, count: 1, startingAt: 9)
        try reopened.close()
        let report = try JournalReader(directory: Self.directory, storage: storage.memory).verify()
        #expect(report.isClean, "\(report)")
        #expect(report.abandoned == [durable + 1...durable + 2])
        #expect(try Self.strictRecords(storage.memory).map(\.sequence).last == durable + 4)
    }

    @Test("a segment that skips numbers is corruption unless its header says where it continues from, and only from there")
    func undeclaredSkipIsCorruption() throws {
        let (storage, failed, durable) = try Self.failedWithStagedRecords()
        let reopened = try Self.writer(storage)
        try reopened.beginSegment(time: TestJournal.time(10), skippingThrough: failed.lastSequence, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(reopened, count: 1, startingAt: 20)
        try reopened.close()
        let name = try #require(try JournalReader(directory: Self.directory, storage: storage.memory).segments.last?.name)
        let path = Self.directory + "/" + name
        let bytes = try #require(storage.memory.bytes(of: path))
        let (header, length) = try bytes.withUnsafeBytes { try SegmentHeader.decode(from: $0) }

        for declared in [nil, durable, durable + 2] as [UInt64?] {
            var rewritten = header
            rewritten.continuesFrom = declared
            rewritten.version = SegmentFormat.version(continuesFrom: declared, maxRecordBytes: Int(header.maxRecordBytes))
            let damaged = storage.memory.copy()
            damaged.setBytes(rewritten.encoded() + bytes[length...], of: path)
            #expect("\(declared.map(String.init) ?? "no declaration")") {
                _ = try Self.strictRecords(damaged)
            } throws: { error in
                if case JournalError.corrupted(let damage) = error { damage.segment == name } else { false }
            }
            let report = try JournalReader(directory: Self.directory, storage: damaged).verify()
            #expect(report.corruption.count == 1 && report.abandoned.isEmpty, "\(report)")
        }
    }

    @Test("recovery makes the tail it keeps durable: a power loss right after reopening keeps every record the writer recovered")
    func recoveredTailIsDurable() throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let previous = try Self.writer(storage)
        try TestJournal.appendRecords(previous, count: 5)
        try previous.sync()
        try TestJournal.appendRecords(previous, count: 6, startingAt: 5)
        // Its last sync fails after its groups and the frame's end were written: a tail that
        // ends cleanly, on a frame boundary, and was never made durable.
        storage.breakDisk()
        #expect(throws: JournalError.self) { try previous.close() }
        storage.repair()

        let reopened = try Self.writer(storage)
        #expect(reopened.recovery.lastSequence == previous.lastSequence && reopened.recovery.repairFailure == nil)
        #expect(reopened.durableSequence == reopened.lastSequence)
        let survivor = storage.memory.simulatePowerLoss(.clean)
        #expect(try Self.strictRecords(survivor).last?.sequence == previous.lastSequence,
                "every record the reopened writer took for durable survives a power loss")
    }

    @Test("a disk that refuses recovery's repair: the writer opens stopped and trusts nothing past the last sealed segment; the next one repairs")
    func refusedRepairOpensStopped() throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        var options = TestJournal.options(storage: storage)
        options.rotation = .onRequest
        let previous = try JournalWriter(directory: Self.directory, options: options, snapshot: nil)
        try previous.rotateIfNeeded(time: TestJournal.time(0), snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(previous, count: 5)
        try previous.beginSegment(time: TestJournal.time(5), snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(previous, count: 5, startingAt: 5)
        try previous.sync()
        storage.breakDisk()
        try TestJournal.appendRecords(previous, count: 6, startingAt: 10)
        #expect(throws: JournalError.self) { try previous.sync() }

        let stopped = try JournalWriter(directory: Self.directory, options: options, snapshot: nil)
        let failure = try #require(stopped.recovery.repairFailure)
        #expect(failure == .io(path: "simulated", operation: "fdatasync", code: 5))
        let lastSegment = try #require(JournalReader(directory: Self.directory, storage: storage.memory).segments.last)
        #expect(lastSegment.baseSequence > 1)
        #expect(stopped.durableSequence == lastSegment.baseSequence - 1, "only sealed segments are trusted")
        #expect(stopped.lastSequence == previous.lastSequence)
        #expect {
            try stopped.append(kind: 16, timestamp: TestJournal.time(99), payload: [1])
        } throws: { error in
            if case JournalError.failed(let reason) = error { reason.contains("fdatasync") } else { false }
        }
        let answered = Locked<[Result<UInt64, JournalError>]>([])
        stopped.flush { result in answered.withLock { $0.append(result) } }
        #expect(answered.withLock { $0.count } == 1)
        #expect(answered.withLock { (try? $0.first?.get()) == nil }, "nothing is answered as durable")

        storage.repair()
        let repaired = try JournalWriter(directory: Self.directory, options: options, snapshot: nil)
        #expect(repaired.recovery.repairFailure == nil && repaired.durableSequence == previous.lastSequence)
        let appended = try TestJournal.appendRecords(repaired, count: 1, startingAt: 50)
        try repaired.close()
        #expect(appended == [previous.lastSequence + 1])
    }

    @Test("a write that fails inside a flush answers the flush (and every waiter) at once")
    func failedWriteAnswersTheFlush() throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let writer = try Self.writer(storage)
        try TestJournal.appendRecords(writer, count: 2)
        let answered = Locked<[Result<UInt64, JournalError>]>([])
        writer.whenDurable(through: writer.lastSequence) { result in answered.withLock { $0.append(result) } }
        storage.fillDisk(halfWritten: false)
        writer.flush { result in answered.withLock { $0.append(result) } }
        let results = answered.withLock { $0 }
        #expect(results.count == 2, "both waiters heard, before flush returned")
        #expect(results.allSatisfy { (try? $0.get()) == nil })
    }
}
