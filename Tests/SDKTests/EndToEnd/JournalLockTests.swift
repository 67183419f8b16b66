import Foundation
import Journal
import Locking
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// One writer per journal, across processes and instances (``SDKConfiguration/processRole``),
/// and no lock held while the app is suspended (iOS kills a suspended app that holds a file
/// lock in an App Group container): the journal is closed, its lock given back, once the
/// background time ends, opened again by the next input, and held again in the foreground.
@Suite("The journal's lock", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct JournalLockTests {
    /// Whether another writer could take the journal's lock in `directory` now (taken and given
    /// back at once).
    static func isFree(_ directory: String) -> Bool {
        guard let lock = try? JournalLock.acquire(directory: directory) else { return false }
        lock.release()
        return true
    }

    @Test("a second instance of one role on one directory is refused, naming the lock; another role writes beside it")
    func oneWriterPerRole() async throws {
        let harness = try SDKHarness()
        #expect(!Self.isFree(harness.directory + "/journal"))
        var configuration = SDKConfiguration(storageDirectory: harness.directory, clock: harness.clock)
        do {
            _ = try EngagementSDK(configuration: configuration)
            Issue.record("a second instance of the app's role opened its journal")
        } catch let error as JournalLockError {
            guard case .held(let path, let holder) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == harness.directory + "/journal/lock")
            #expect(holder.hasPrefix("pid \(getpid()) token "))
        }
        configuration.processRole = "widget"
        let widget = try EngagementSDK(configuration: configuration)
        widget.track("from-the-widget")
        await widget.settle()
        widget.shutdown()
        #expect(Self.isFree(harness.directory + "/journal-widget"), "a shutdown gives the lock back")
        #expect(configuration.keyringPath == harness.directory + "/keyring-widget")
        let cursor = try JournalReader(directory: harness.directory + "/journal-widget").records()
        var events: [String] = []
        while let record = try cursor.next() {
            if !record.isSnapshot, case .callReceived(let received) = try FactCodec.decode(kind: record.kind, payload: record.payload),
               case .track(let name, _) = received.call { events.append(name) }
        }
        #expect(events == ["from-the-widget"])
    }

    @Test("the role is checked: a name for a directory, nothing else")
    func roleIsValidated() {
        for role in ["", "App", "1app", "a/b", "widget.", String(repeating: "a", count: 33)] {
            var configuration = SDKConfiguration(storageDirectory: "/nonexistent")
            configuration.processRole = role
            #expect(throws: ConfigurationError.self, "\(role)") { try configuration.validate() }
        }
        var configuration = SDKConfiguration(storageDirectory: "/nonexistent")
        configuration.processRole = "notification-service2"
        #expect(throws: Never.self) { try configuration.validate() }
    }

    @Test("the lock is given back when the background time ends, taken for a background wake's input and given back after it, held again in the foreground")
    func suspensionGivesTheLockBack() async throws {
        let (harness, _) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let journal = harness.directory + "/journal"
        #expect(!Self.isFree(journal))
        sdk.track("made-offline")   // waits: the background time lasts until its deadline
        await sdk.settle()
        let ends = Locked(0)
        sdk.applicationDidEnterBackground(BackgroundTime(budget: .seconds(10)) { ends.withLock { $0 += 1 } })
        await sdk.settle()
        #expect(!Self.isFree(journal), "held while the background time lasts")
        harness.clock.advance(by: .seconds(8))
        await sdk.settle()
        #expect(ends.withLock { $0 } == 1)
        #expect(Self.isFree(journal), "given back with the time")

        sdk.track("woken-in-the-background")
        await sdk.settle()
        #expect(Self.isFree(journal), "a background wake's input is recorded, then the lock given back again")

        sdk.applicationWillEnterForeground()
        await sdk.settle()
        #expect(!Self.isFree(journal), "held again in the foreground")
        sdk.track("in-the-foreground")
        await sdk.settle()
        #expect(sdk.journalFailure == nil)
        let facts = try harness.closedFacts()
        let tracked = facts.compactMap { fact -> String? in
            if case .callReceived(let received) = fact, case .track(let name, _) = received.call { name } else { nil }
        }
        #expect(tracked == ["made-offline", "woken-in-the-background", "in-the-foreground"])
        #expect(!facts.contains { if case .journalGap = $0 { true } else { false } }, "nothing lost across the closings")
    }

    @Test("another writer that took the given-back lock keeps it: the suspended app's next input is an outage naming it, never a second writer")
    func aLockTakenWhileSuspendedIsAnOutage() async throws {
        let (harness, _) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let journal = harness.directory + "/journal"
        sdk.applicationDidEnterBackground(nil)
        await sdk.settle()
        let other = try JournalLock.acquire(directory: journal)
        let before = try JournalReader(directory: journal).segments.map(\.bytes)
        sdk.track("while-another-holds-it")
        await sdk.settle()
        #expect(sdk.journalFailure?.contains("being written by another writer") == true, "\(sdk.journalFailure ?? "no failure")")
        #expect(try JournalReader(directory: journal).segments.map(\.bytes) == before, "nothing written under another's lock")
        other.release()
        harness.clock.advance(by: .seconds(2))
        await sdk.settle()
        #expect(sdk.journalFailure == nil, "the outage's retry takes the lock once it is free")
        let facts = try harness.closedFacts()
        #expect(facts.contains { if case .journalGap(let gap) = $0 { gap.reason.contains("another writer") } else { false } })
    }
}
