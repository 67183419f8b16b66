import Foundation
import SDKTesting
import Testing
@testable import Journal
import Locking
import TestSupport

/// The group-commit thread compresses and writes what appenders only encoded.
@Suite("Writer: compression on the group-commit thread", .timeLimit(.minutes(3)))
struct AsyncCommitWriterTests {
    /// Deterministic options with a group-commit thread whose time bound never passes in a
    /// test: groups are cut by their record and byte bounds, flushes and close only.
    static func threadedOptions(storage: any JournalStorage, durable: Bool = true) -> JournalOptions {
        var options = TestJournal.options(segmentBytes: 1 << 20, frameBytes: 1024, groupRecords: 4, storage: storage)
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: .seconds(3600), synchronizesEachGroup: durable)
        return options
    }

    @Test("groups compressed by the group-commit thread are the very bytes the appender would write itself")
    func sameBytesAsInline() throws {
        func build(threaded: Bool) throws -> [String: [UInt8]] {
            let storage = InMemoryStorage()
            var options = Self.threadedOptions(storage: storage)
            if !threaded { options.groupCommit.maxDelay = nil }
            let writer = try JournalWriter(directory: "/a", options: options, snapshot: TestJournal.snapshot)
            try TestJournal.appendRecords(writer, count: 500)
            for bundle in 0..<20 {
                let records = (0..<(1 + bundle % 5)).map { _ in (kind: UInt32(16), payload: TestJournal.payload(bundle)) }
                try writer.appendBundle(records, timestamp: TestJournal.time(500 + bundle))
            }
            try writer.close()
            return Dictionary(uniqueKeysWithValues: storage.fileNames(in: "/a").map { ($0, storage.bytes(of: "/a/" + $0)!) })
        }
        let inline = try build(threaded: false)
        #expect(inline.keys.contains { $0.hasSuffix(".lz4") })
        #expect(try build(threaded: true) == inline)
    }

    @Test("a writer dropped without close is released and closes itself: the group-commit thread keeps only its core, and everything appended is durable")
    func droppedWriterClosesItself() throws {
        let storage = InMemoryStorage()
        weak var dropped: JournalWriter?
        do {
            let writer = try JournalWriter(directory: "/w", options: Self.threadedOptions(storage: storage), snapshot: TestJournal.snapshot)
            try TestJournal.appendRecords(writer, count: 300)
            dropped = writer
        }
        #expect(dropped == nil, "nothing but its owner keeps a writer alive")
        let records = try JournalReader(directory: "/w", storage: storage.simulatePowerLoss()).readAll().records
        #expect(TestJournal.applicationRecords(records).map(\.payload) == (0..<300).map(TestJournal.payload))
    }

    @Test("flush after many appends: everything before it survives a power loss, and reads back")
    func flushAfterManyAppendsIsDurable() async throws {
        let storage = InMemoryStorage()
        var options = Self.threadedOptions(storage: storage)
        options.maxStagedBytes = options.maxGroupBytes
        let writer = try JournalWriter(directory: "/d", options: options, snapshot: TestJournal.snapshot)
        let sequences = try TestJournal.appendRecords(writer, count: 3_000)
        let durable = try await writer.flush()
        #expect(durable >= sequences.last!)
        #expect(writer.durableSequence >= sequences.last!)

        let afterLoss = storage.simulatePowerLoss()
        let records = try JournalReader(directory: "/d", storage: afterLoss).readAll().records
        let application = TestJournal.applicationRecords(records)
        #expect(application.count == 3_000)
        #expect(application.map(\.payload) == (0..<3_000).map(TestJournal.payload))
        try writer.close()
        #expect(try JournalReader(directory: "/d", storage: storage).verify().isClean)
    }

    @Test("a reader of the journal being written sees only whole blocks: no damage, a prefix of the appends")
    func readWhileWriting() throws {
        let storage = InMemoryStorage()
        let options = Self.threadedOptions(storage: storage, durable: false)
        let writer = try JournalWriter(directory: "/w", options: options, snapshot: TestJournal.snapshot)
        for round in 0..<10 {
            try TestJournal.appendRecords(writer, count: 300, startingAt: round * 300)
            let copy = storage.copy()
            let (records, cursor) = try JournalReader(directory: "/w", storage: copy).readAll()
            #expect(cursor.tornTail == nil)
            let application = TestJournal.applicationRecords(records)
            #expect(application.count <= (round + 1) * 300)
            #expect(application.map(\.payload) == (0..<application.count).map(TestJournal.payload))
        }
        try writer.close()
    }

    @Test("a sync failing on the group-commit thread reaches the background-failure observer once, and fails the writer")
    func failedBackgroundSync() async throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let heard = Eventually<JournalError>()
        var options = Self.threadedOptions(storage: storage)
        options.backgroundFailureObserver = heard.completion
        guard let (writer, flushFailure) = try await Self.flushOverAFailingSync(options, directory: "/s", failing: { storage.breakDisk() }) else { return }
        let failure = await heard.value
        #expect("\(failure)".contains("fdatasync"))
        #expect {
            try writer.append(kind: 16, timestamp: TestJournal.time(0), payload: [1])
        } throws: { error in
            if case JournalError.failed = error { true } else { false }
        }
        #expect(heard.deliveries == 1)
        try await Self.expectStoppedOnce(writer, flushFailure: flushFailure, naming: "fdatasync")
    }

    @Test("a storage's own error (not a JournalError) stops the writer, and every later flush and append says so once")
    func foreignSyncError() async throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        guard let (writer, flushFailure) = try await Self.flushOverAFailingSync(Self.threadedOptions(storage: storage), directory: "/e",
                                                                               failing: { storage.breakDisk(throwing: OwnError()) }) else { return }
        try await Self.expectStoppedOnce(writer, flushFailure: flushFailure, naming: OwnError().description)
    }

    /// A writer with three records made durable, then `failing` raised and two more records
    /// appended (fewer than a group: nothing reaches the thread, and its failing sync, before
    /// the flush) and flushed: the writer and that flush's failure; nil, with an issue
    /// recorded, when the flush succeeded.
    private static func flushOverAFailingSync(_ options: JournalOptions, directory: String,
                                              failing: () -> Void) async throws -> (JournalWriter, JournalError)? {
        let writer = try JournalWriter(directory: directory, options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 3)
        _ = try await writer.flush()
        failing()
        try TestJournal.appendRecords(writer, count: 2, startingAt: 3)
        let flushed = Eventually<Result<UInt64, JournalError>>()
        writer.flush(completion: flushed.completion)
        guard case .failure(let failure) = await flushed.value else {
            Issue.record("a flush over a failed sync succeeded")
            return nil
        }
        return (writer, failure)
    }

    /// The failure of the flush that met the stop, of a later flush and of a later append each
    /// say that the writer stopped, once, and name `cause`.
    private static func expectStoppedOnce(_ writer: JournalWriter, flushFailure: JournalError, naming cause: String) async throws {
        let laterFlush = Eventually<Result<UInt64, JournalError>>()
        writer.flush(completion: laterFlush.completion)
        guard case .failure(let laterFailure) = await laterFlush.value else {
            Issue.record("a flush after the writer stopped succeeded")
            return
        }
        var appendFailure = ""
        do { try writer.append(kind: 16, timestamp: TestJournal.time(0), payload: [1]) } catch { appendFailure = "\(error)" }
        for said in ["\(flushFailure)", "\(laterFailure)", appendFailure] {
            #expect(said.components(separatedBy: "stopped after an earlier failure").count == 2, "\(said)")
            #expect(said.contains(cause), "\(said)")
        }
    }

    @Test("a write failing on the group-commit thread reaches the observer, and later appends throw")
    func failedBackgroundWrite() async throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let heard = Eventually<JournalError>()
        var options = Self.threadedOptions(storage: storage, durable: false)
        options.backgroundFailureObserver = heard.completion
        let writer = try JournalWriter(directory: "/f", options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 3)
        _ = try await writer.flush()
        storage.fillDisk(halfWritten: false)
        // Appending only encodes: the write that fails is the group-commit thread's.
        try TestJournal.appendRecords(writer, count: 2, startingAt: 3)
        let flushed = Eventually<Result<UInt64, JournalError>>()
        writer.flush(completion: flushed.completion)
        guard case .failure = await flushed.value else {
            Issue.record("a flush over a failed write succeeded")
            return
        }
        _ = await heard.value
        #expect(throws: JournalError.self) { try TestJournal.appendRecords(writer, count: 1) }
        #expect(heard.deliveries == 1)
    }

    @Test("with the group-commit thread stuck in a sync, staging stays within its byte bound and appends go on")
    func stagingBound() async throws {
        let hold = SyncHold()
        let storage = FailingSyncStorage(memory: InMemoryStorage(), hold: hold)
        var options = Self.threadedOptions(storage: storage)
        options.maxStagedBytes = 2048
        let writer = try JournalWriter(directory: "/b", options: options, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(writer, count: 1)
        hold.arm()
        // A group, plus the record that filled it, may pass the bound before the append that
        // crossed it writes them.
        let slack = options.maxGroupBytes + 256
        var largest = 0
        for index in 1..<2_000 {
            try TestJournal.appendRecords(writer, count: 1, startingAt: index)
            largest = max(largest, writer.stagedBytes)
        }
        #expect(largest <= options.maxStagedBytes + slack)
        // The thread is held in its sync, so the appends themselves compressed whole frames
        // (with the second compressor) and wrote what they staged.
        #expect(writer.framesCompressedByAppenders > 0)
        #expect(writer.writtenSequence > 1_000)
        #expect(writer.durableSequence < writer.lastSequence)
        hold.release()
        let durable = try await writer.flush()
        #expect(durable == writer.lastSequence)
        try writer.close()
        let reader = try JournalReader(directory: "/b", storage: storage.memory)
        let records = TestJournal.applicationRecords(try reader.readAll().records)
        #expect(records.map(\.payload) == (0..<2_000).map(TestJournal.payload))
        #expect(reader.verify().isClean)
        // Every sync point, the index's included, leads to its record.
        for sequence in stride(from: UInt64(1), through: writer.lastSequence, by: 97) {
            #expect(try reader.records(from: sequence).next()?.sequence == sequence)
        }
        // The same calls without a group-commit thread write the same bytes: the frames the
        // appends compressed with the second compressor are the ones the thread would have.
        let inline = InMemoryStorage()
        var inlineOptions = Self.threadedOptions(storage: inline)
        inlineOptions.groupCommit.maxDelay = nil
        let inlineWriter = try JournalWriter(directory: "/b", options: inlineOptions, snapshot: TestJournal.snapshot)
        try TestJournal.appendRecords(inlineWriter, count: 2_000)
        try inlineWriter.sync()
        try inlineWriter.close()
        for name in inline.fileNames(in: "/b") {
            #expect(inline.bytes(of: "/b/" + name) == storage.memory.bytes(of: "/b/" + name), "\(name) differs")
        }
    }
}

/// An error of a storage of the app's own (not a `JournalError`).
struct OwnError: Error, CustomStringConvertible {
    var description: String { "the disk went away (the storage's own error)" }
}
