import Foundation
import Journal
import Locking
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// A launch before the first unlock, over the real SDK, the loopback Sandbox, the manual clock and
/// SDKTesting's `LockedDeviceStorage`: calls are held in memory, nothing is sent, then once the
/// files open (the app's protected-data call, or the retry timer) the held calls are journaled in
/// order and delivered under the identity the journal restored.
@Suite("Locked storage at launch", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct LockedStorageTests {
    /// Ada signed in on "us" with one event delivered, then the SDK shut down; a relaunch over the
    /// same directory on a locked device.
    static func relaunchedLocked(configure: ((inout SDKConfiguration) -> Void)? = nil) async throws
        -> (first: SDKHarness, locked: SDKHarness, storage: LockedDeviceStorage<PosixStorage>) {
        let first = try SDKHarness()
        await first.sdk.outcome.initialize(first.us)
        await first.sdk.outcome.setEmail("ada@example.com")
        await first.sdk.outcome.track("before-reboot")
        first.sdk.shutdown()
        let storage = LockedDeviceStorage(base: PosixStorage())
        let locked = try SDKHarness(directory: first.directory, sandbox: first.sandbox, clock: first.clock, ids: SequentialIDs(startingAt: 100),
                                    storage: storage, keepsDirectory: true, configure: configure)
        return (first, locked, storage)
    }

    /// The facts of the last launch: from its `engineStarted` on.
    static func lastLaunch(_ facts: [Fact]) -> [Fact] {
        guard let start = facts.lastIndex(where: { if case .engineStarted = $0 { true } else { false } }) else { return [] }
        return Array(facts[start...])
    }

    static func receivedCalls(_ facts: [Fact]) -> [PublicCall] {
        facts.compactMap { if case .callReceived(let received) = $0 { received.call } else { nil } }
    }

    @Test("held while locked, nothing sent; protectedDataDidBecomeAvailable journals them in order and delivers them as ada")
    func protectedDataCallOpensTheFiles() async throws {
        let (first, harness, storage) = try await Self.relaunchedLocked()
        let sdk = harness.sdk
        #expect(sdk.storageStatus.isAvailable == false)
        #expect(sdk.storageStatus.failedOpenings == 1)
        #expect(sdk.storageStatus.unavailableReason?.contains("\(EPERM)") == true, "\(sdk.storageStatus)")
        let outcomes = (0..<3).map { _ in Eventually<CallOutcome>() }
        sdk.initialize(harness.us)
        for (index, outcome) in outcomes.enumerated() { sdk.track("held-\(index)", completion: outcome.completion) }
        await sdk.settle()
        harness.clock.advance(by: .seconds(10))   // short of the retry interval
        await sdk.settle()
        #expect(outcomes.allSatisfy { $0.current == nil }, "held: nothing answered")
        #expect(harness.sandbox.deliveredEvents(project: "us").map(\.eventName) == ["before-reboot"], "nothing sent while locked")
        #expect(sdk.storageStatus.heldInputs == 4)
        #expect(sdk.email == nil, "no identity read, none made")

        storage.unlock()
        sdk.protectedDataDidBecomeAvailable()
        await sdk.settle()
        #expect(sdk.storageStatus.isAvailable)
        #expect(sdk.storageStatus.unavailableReason == nil)
        for outcome in outcomes { #expect(outcome.current == .delivered(project: harness.us.fingerprint, status: 200)) }
        let delivered = harness.sandbox.deliveredEvents(project: "us")
        #expect(delivered.map(\.eventName) == ["before-reboot", "held-0", "held-1", "held-2"])
        #expect(delivered.allSatisfy { $0.email == "ada@example.com" }, "under the identity the journal kept")
        #expect(sdk.email == "ada@example.com")

        let facts = Self.lastLaunch(try harness.closedFacts())
        guard case .engineStarted(let start)? = facts.first, case .storageWasUnavailable(let reason, let waited, 1, 4, 0)? = facts.dropFirst().first else {
            Issue.record("engineStarted then storageWasUnavailable first: \(facts.prefix(2))")
            return
        }
        #expect(start.restored)
        #expect(reason.contains("\(EPERM)"))
        #expect(waited == 10_000_000, "waited on the manual clock")
        #expect(Self.receivedCalls(facts).map(\.name.rawValue) == ["initialize", "track", "track", "track"])
        #expect(!facts.contains { if case .identityChanged = $0 { true } else { false } }, "no new identity")
        _ = first
    }

    @Test("the retry timer on the manual clock: a failed retry is counted and arms the next; the next after unlocking opens the files")
    func timerRetry() async throws {
        let (first, harness, storage) = try await Self.relaunchedLocked()
        let sdk = harness.sdk
        let outcome = Eventually<CallOutcome>()
        sdk.initialize(harness.us)
        sdk.track("held", completion: outcome.completion)
        await sdk.settle()
        harness.clock.advance(by: .seconds(30))   // the first retry, still locked
        await sdk.settle()
        #expect(sdk.storageStatus.failedOpenings == 2)
        #expect(!sdk.storageStatus.isAvailable)
        storage.unlock()
        harness.clock.advance(by: .milliseconds(29_999))
        await sdk.settle()
        #expect(!sdk.storageStatus.isAvailable, "the next retry is 30 s after the last")
        harness.clock.advance(by: .milliseconds(1))
        await sdk.settle()
        #expect(sdk.storageStatus.isAvailable)
        #expect(outcome.current == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(harness.sandbox.deliveredEvents(project: "us").map(\.eventName) == ["before-reboot", "held"])
        #expect(harness.sandbox.deliveredEvents(project: "us").last?.email == "ada@example.com")
        let facts = Self.lastLaunch(try harness.closedFacts())
        #expect(facts.dropFirst().first == .storageWasUnavailable(reason: facts.storageReason, waitedMicroseconds: 60_000_000, attempts: 2,
                                                                  held: 2, refused: 0))
        _ = first
    }

    @Test("past the hold's bound a call is refused at once, counted, and the count journaled once the files open")
    func boundRefuses() async throws {
        let (first, harness, storage) = try await Self.relaunchedLocked { $0.storageHoldCapacity = 3 }
        let sdk = harness.sdk
        sdk.initialize(harness.us)
        let outcomes = (0..<3).map { _ in Eventually<CallOutcome>() }
        for (index, outcome) in outcomes.enumerated() { sdk.track("e\(index)", completion: outcome.completion) }
        let refused = await outcomes[2].value
        guard case .failed(.rejected(let reason)) = refused else {
            Issue.record("refused: \(refused)")
            return
        }
        #expect(reason.contains("storageHoldCapacity"), "\(reason)")
        #expect(sdk.storageStatus.heldInputs == 3)
        #expect(sdk.storageStatus.refusedInputs == 1)
        storage.unlock()
        sdk.protectedDataDidBecomeAvailable()
        await sdk.settle()
        #expect(harness.sandbox.deliveredEvents(project: "us").map(\.eventName) == ["before-reboot", "e0", "e1"])
        let facts = Self.lastLaunch(try harness.closedFacts())
        #expect(facts.dropFirst().first == .storageWasUnavailable(reason: facts.storageReason, waitedMicroseconds: 0, attempts: 1,
                                                                  held: 3, refused: 1))
        #expect(outcomes[2].deliveries == 1)
        _ = first
    }

    @Test("shut down while locked: every held call hears of the shutdown and nothing is journaled")
    func shutdownWhileLocked() async throws {
        let (first, harness, _) = try await Self.relaunchedLocked()
        let before = try first.facts().count
        let outcome = Eventually<CallOutcome>()
        harness.sdk.track("never", completion: outcome.completion)
        harness.sdk.shutdown()
        #expect(await outcome.value == .discarded(.shutdown))
        #expect(try first.facts().count == before, "the journal could not be opened: nothing written")
    }

    @Test("EPERM from opening the keyring or a journal file is a locked device; any other error is a real failure")
    func classification() {
        #expect(StorageOpener.isProtectedDataUnavailable(KeyringError.io(path: "keyring", operation: "open", code: EPERM)))
        #expect(StorageOpener.isProtectedDataUnavailable(JournalError.io(path: "journal/00000001.lz4", operation: "open", code: EPERM)))
        #expect(!StorageOpener.isProtectedDataUnavailable(KeyringError.io(path: "keyring", operation: "open", code: EACCES)))
        #expect(!StorageOpener.isProtectedDataUnavailable(JournalError.io(path: "journal", operation: "open", code: EIO)))
        #expect(!StorageOpener.isProtectedDataUnavailable(KeyringError.cannotEncode(path: "keyring")))
    }

    @Test("a keyring write that fails is journaled and in storageStatus, not dropped")
    func keyringWriteFailure() async throws {
        let harness = try SDKHarness()
        // A directory where the keyring writes its temporary file: every write fails.
        try FileManager.default.createDirectory(atPath: harness.directory + "/keyring.tmp", withIntermediateDirectories: false)
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.settle()
        let status = harness.sdk.storageStatus
        #expect(status.keyringWriteFailureCount == 1)
        #expect(status.keyringWriteFailures.first?.contains("keyring.tmp") == true, "\(status)")
        let facts = try harness.closedFacts()
        let failures = facts.filter { if case .keyringWriteFailed = $0 { true } else { false } }
        #expect(failures.count == 1)
        if case .keyringWriteFailed(let project, let reason)? = failures.first {
            #expect(project == harness.us.fingerprint)
            #expect(reason == status.keyringWriteFailures.first)
        }
    }
}

extension [Fact] {
    /// The reason the launch's `storageWasUnavailable` gives (for comparing the rest of it).
    fileprivate var storageReason: String {
        for fact in self { if case .storageWasUnavailable(let reason, _, _, _, _) = fact { return reason } }
        return ""
    }
}
