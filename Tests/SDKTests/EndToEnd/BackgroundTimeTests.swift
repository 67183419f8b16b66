import Foundation
import Journal
import Locking
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// The app goes to the background through the public call, over the real SDK, the loopback
/// Sandbox and the manual clock: what waited is sent and the journal made durable within the
/// time granted, which is given back once, before it runs out; `replay` finds each step.
@Suite("Background time", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct BackgroundTimeTests {
    /// Time of `seconds`, counting how often it is given back.
    static func time(seconds: Int64) -> (BackgroundTime, Locked<Int>) {
        let ends = Locked(0)
        return (BackgroundTime(budget: .seconds(seconds)) { ends.withLock { $0 += 1 } }, ends)
    }

    static func backgroundFacts(_ facts: [Fact]) -> [Fact] {
        facts.filter { fact in
            switch fact {
            case .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded: true
            default: false
            }
        }
    }

    @Test("what waited offline goes when the app enters the background; the time is given back once it is delivered and durable")
    func waitingRequestsGoInTheBackground() async throws {
        let (harness, network) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let outcomes = (0..<3).map { _ in Eventually<CallOutcome>() }
        for (index, outcome) in outcomes.enumerated() { sdk.track("made-offline-\(index)", completion: outcome.completion) }
        await OfflineDeliveryTests.pass(.seconds(60), in: 6, harness)
        network.goOnline()
        let (time, ends) = Self.time(seconds: 30)
        sdk.applicationDidEnterBackground(time)
        await sdk.settle()
        #expect(ends.withLock { $0 } == 1, "given back once the flush was done")
        for outcome in outcomes { #expect(outcome.current == .delivered(project: harness.us.fingerprint, status: 200)) }
        #expect(harness.sandbox.deliveredEvents(project: "us").map(\.eventName) == (0..<3).map { "made-offline-\($0)" })
        let facts = Self.backgroundFacts(try harness.closedFacts())
        #expect(facts.count == 3)
        #expect(facts.first == .backgroundTaskBegan(task: 1, budgetMicroseconds: 30_000_000))
        // One request or more, as the three calls gathered into bulks while the first failed.
        if case .backgroundFlushFinished(1, let queued, 0, nil)? = facts.dropFirst().first {
            #expect((1...3).contains(queued))
        } else {
            Issue.record("the flush's outcome: \(facts)")
        }
        #expect(facts.last == .backgroundTaskEnded(task: 1, reason: .flushed))
        #expect(ends.withLock { $0 } == 1)
    }

    @Test("still offline: given back 5 s before the budget ends, on the manual clock; the next grant is task 2; expiry is journaled")
    func deadlineThenExpiry() async throws {
        let (harness, _) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        sdk.track("made-offline")
        await sdk.settle()
        let (first, firstEnds) = Self.time(seconds: 10)
        sdk.applicationDidEnterBackground(first)
        await sdk.settle()
        harness.clock.advance(by: .milliseconds(7_999))
        await sdk.settle()
        #expect(firstEnds.withLock { $0 } == 0)
        harness.clock.advance(by: .milliseconds(1))   // 10 s less 2 s (a fifth of a budget under 25 s)
        await sdk.settle()
        #expect(firstEnds.withLock { $0 } == 1)

        sdk.applicationWillEnterForeground()   // holds nothing: nothing journaled
        let (second, secondEnds) = Self.time(seconds: 30)
        sdk.applicationDidEnterBackground(second)
        await sdk.settle()
        second.expire()
        await sdk.settle()
        #expect(secondEnds.withLock { $0 } == 1)
        let facts = Self.backgroundFacts(try harness.closedFacts())
        #expect(facts == [
            .backgroundTaskBegan(task: 1, budgetMicroseconds: 10_000_000),
            .backgroundFlushFinished(task: 1, queued: 1, left: 1, failure: nil),
            .backgroundTaskEnded(task: 1, reason: .deadline),
            .backgroundTaskBegan(task: 2, budgetMicroseconds: 30_000_000),
            .backgroundTaskExpired(task: 2),
            .backgroundFlushFinished(task: 2, queued: 1, left: 1, failure: nil),
            .backgroundTaskEnded(task: 2, reason: .expired),
        ])
    }

    @Test("no time granted: journaled and given up at once; time held at shutdown is given back, journaled before the stop; after it, given back at once")
    func noGrantAndShutdown() async throws {
        let (harness, network) = try SDKHarness.withSwitchableNetwork()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        network.goOffline()
        sdk.setEmail("ada@example.com")
        sdk.track("made-offline")
        sdk.applicationDidEnterBackground(nil)
        await sdk.settle()
        let (time, ends) = Self.time(seconds: 30)
        sdk.applicationDidEnterBackground(time)
        await sdk.settle()
        #expect(ends.withLock { $0 } == 0, "held: the request still waits")
        let facts = Self.backgroundFacts(try harness.closedFacts())
        #expect(ends.withLock { $0 } == 1, "given back at the shutdown")
        let (late, lateEnds) = Self.time(seconds: 30)
        sdk.applicationDidEnterBackground(late)
        #expect(lateEnds.withLock { $0 } == 1, "given back at once after the shutdown")
        #expect(facts == [
            .backgroundTaskBegan(task: 1, budgetMicroseconds: 0),
            .backgroundFlushFinished(task: 1, queued: 1, left: 1, failure: "not confirmed before the task ended"),
            .backgroundTaskEnded(task: 1, reason: .deadline),
            .backgroundTaskBegan(task: 2, budgetMicroseconds: 30_000_000),
            .backgroundFlushFinished(task: 2, queued: 1, left: 1, failure: nil),
            .backgroundTaskEnded(task: 2, reason: .shutdown),
        ])
    }
}
