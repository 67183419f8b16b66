import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
@testable import SDK

/// Issue item 11: a journal that fails comes back, and says what it missed (with the real
/// engine thread and group-commit thread; the disk-full story is `EdgesStoreTests`).
@Suite("Edges: a journal that fails comes back", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct JournalOutageTests {
    // MARK: - The gap is exact (docs/RELIABILITY.md, "A journal that fails")

    /// The journal's records, read strictly (a skip a header does not declare would throw).
    static func records(_ storage: FailingSyncStorage<InMemoryStorage>, _ harness: SDKHarness) throws -> [JournalRecord] {
        let cursor = try JournalReader(directory: harness.directory + "/journal", storage: storage.memory).records()
        var records: [JournalRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return records
    }

    /// The last record a journal on `storage` holds.
    static func lastSequence(after storage: InMemoryStorage, _ harness: SDKHarness) throws -> UInt64 {
        let cursor = try JournalReader(directory: harness.directory + "/journal", storage: storage).records()
        var last: UInt64 = 0
        while let record = try cursor.next() { last = record.sequence }
        return last
    }

    static func gap(of record: JournalRecord) -> JournalGap? {
        if case .journalGap(let gap)? = try? FactCodec.decode(kind: record.kind, payload: record.payload) { gap } else { nil }
    }

    @Test("records the writer numbered but never wrote are lost facts: the gap counts them from the first, at its time, and the segment after it begins past their numbers")
    func numberedRecordsLostAreCounted() async throws {
        let hold = SyncHold()
        let storage = FailingSyncStorage(memory: InMemoryStorage(), hold: hold)
        let harness = try SDKHarness(storage: storage)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))
        await sdk.settle()

        // The group-commit thread is held inside the sync of what one call appended.
        hold.arm()
        let writtenAt = harness.clock.now()
        await sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 1, templateID: 1, messageID: "kept"))
        await hold.arrivals.wait(untilAtLeast: 1)
        let beforeLost = try #require(sdk.engineView()).lastSequence

        // A second later, two calls: numbered and staged behind the held sync, never written.
        harness.clock.advance(by: .seconds(1))
        let lostAt = harness.clock.now()
        await sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 2, templateID: 2, messageID: "lost"))
        await sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 3, templateID: 3, messageID: "lost too"))
        let numbered = try #require(sdk.engineView()).lastSequence
        #expect(numbered > beforeLost)

        // The disk fills up; the held sync goes through; writing the staged calls fails. The
        // engine hears it from the group-commit thread (no input of its own) a second later.
        storage.fillDisk()
        harness.clock.advance(by: .seconds(1))
        let retryDue = harness.clock.now().advanced(by: .seconds(1))
        hold.release()
        var spins = 0
        while harness.clock.pendingTimers(dueAt: retryDue) == 0 && spins < 10_000_000 {
            spins += 1
            await Task.yield()
        }
        #expect(sdk.journalFailure != nil)

        storage.repair()
        harness.clock.advance(by: .seconds(1))
        #expect(sdk.journalFailure == nil, "the journal records again")
        sdk.shutdown()

        let records = try Self.records(storage, harness)
        let at = try #require(records.firstIndex { Self.gap(of: $0) != nil })
        let gap = try #require(Self.gap(of: records[at]))
        let snapshot = records[at - 1]
        let kept = records[at - 2].sequence
        #expect(snapshot.isSnapshot)
        #expect(kept <= beforeLost, "what was staged behind the held sync never reached the disk")
        #expect(snapshot.sequence > numbered, "no number the failed writer gave out is given again")
        #expect(gap.lostFacts == numbered - kept, "every numbered record the journal lost, and nothing else (nothing was decided while out)")
        #expect(gap.from == (kept < beforeLost ? writtenAt : lostAt), "from the first lost fact, not from when the engine heard")
        #expect(gap.firstLostSequence == kept + 1)
        let report = try JournalReader(directory: harness.directory + "/journal", storage: storage.memory).verify()
        #expect(report.isClean, "\(report)")
        #expect(report.abandoned == (snapshot.sequence > kept + 1 ? [kept + 1...snapshot.sequence - 1] : []))
    }

    /// An SDK whose journal has no group-commit thread (groups are written when they fill, or
    /// at a flush or a seal) and, unless `rotating` is false, rotates every 16 records: a seal
    /// is where a failing disk leaves a segment written to its end and never synchronized.
    /// Without rotations, nothing the SDK does soon after its start synchronizes the journal.
    static func sealingHarness(_ storage: FailingSyncStorage<InMemoryStorage>, after first: SDKHarness? = nil, rotating: Bool = true) throws -> SDKHarness {
        try SDKHarness(directory: first?.directory, sandbox: first?.sandbox, clock: first?.clock, storage: storage,
                       keepsDirectory: first != nil, segmentRecords: rotating ? 16 : nil,
                       groupCommit: GroupCommit(maxRecords: 64, maxDelay: nil))
    }

    /// Makes calls on a failing disk until a rotation's seal fails; returns the last sequence
    /// the journal holds (written, never synced), then shuts the SDK down during the outage.
    static func shutDownDuringOutage(_ harness: SDKHarness, _ storage: FailingSyncStorage<InMemoryStorage>) async throws -> UInt64 {
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.settle()
        storage.breakDisk()
        var calls = 0
        while harness.sdk.journalFailure == nil && calls < 64 {
            await harness.sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: Int64(calls), templateID: 1, messageID: "m\(calls)"))
            calls += 1
        }
        #expect(harness.sdk.journalFailure != nil)
        harness.sdk.shutdown()
        return try #require(try Self.records(storage, harness).last).sequence
    }

    @Test("a journal a shutdown during an outage left unsynced is made durable by the next launch, before anything is answered as durable")
    func unsyncedTailMadeDurableAtLaunch() async throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let first = try Self.sealingHarness(storage)
        let unsynced = try await Self.shutDownDuringOutage(first, storage)
        #expect(try Self.lastSequence(after: storage.memory.simulatePowerLoss(.clean), first) < unsynced,
                "the tail was never made durable: a power loss now would take it")

        storage.repair()
        let second = try Self.sealingHarness(storage, after: first, rotating: false)
        #expect(second.sdk.journalRecovery.lastSequence == unsynced && second.sdk.journalRecovery.repairFailure == nil)
        _ = second.sdk.engineView()
        #expect(try Self.lastSequence(after: storage.memory.simulatePowerLoss(.clean), first) >= unsynced,
                "a power loss after the launch keeps everything the launch recovered")
        second.sdk.shutdown()
    }

    @Test("a launch on a disk that still refuses: the SDK starts with its journal out, answers nothing as durable, and records again, with a gap, once the disk works")
    func launchOnRefusingDisk() async throws {
        let storage = FailingSyncStorage(memory: InMemoryStorage())
        let first = try Self.sealingHarness(storage)
        let unsynced = try await Self.shutDownDuringOutage(first, storage)

        let launchedAt = first.clock.now()
        let second = try Self.sealingHarness(storage, after: first)
        let sdk = second.sdk
        #expect(sdk.journalRecovery.repairFailure != nil)
        #expect(sdk.journalFailure != nil, "out from the start")
        guard case .failed = await sdk.outcome.flush() else {
            Issue.record("a flush on a journal that could not be made durable must fail")
            return
        }

        storage.repair()
        second.clock.advance(by: .seconds(1))
        #expect(sdk.journalFailure == nil, "the retry repaired the journal")
        sdk.shutdown()
        let records = try Self.records(storage, second)
        let at = try #require(records.firstIndex { Self.gap(of: $0) != nil })
        let gap = try #require(Self.gap(of: records[at]))
        #expect(records[at - 2].sequence == unsynced, "the tail the launch could not sync is kept, now durable")
        #expect(gap.firstLostSequence == unsynced + 1)
        #expect(gap.from == launchedAt)
        #expect(gap.lostFacts > 0, "the start and the flush were decided while out")
    }
}
