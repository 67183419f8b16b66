import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 1: a call the gate accepted is never lost at the landing because the delivery
/// queue is smaller than the gate.
@Suite("Edges: the gate and the delivery queue", .timeLimit(.minutes(1)))
struct GateBoundsTests {
    @Test("a long switch holding more calls than the delivery queue takes: every held call reaches the new project, in order, none discarded")
    func heldCallsWaitForRoom() async throws {
        let (harness, gate) = try SwitchContractTests.heldHarness(rules: EngineRules(gateCapacity: 200, queueCapacity: 10))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)
        await gate.waitUntilHolding()
        sdk.setEmail("grace@example.com", completion: nil)
        let outcomes = (0..<60).map { _ in Eventually<CallOutcome>() }
        for (index, outcome) in outcomes.enumerated() { sdk.track("e\(index)", completion: outcome.completion) }
        gate.release()
        _ = await switched.value
        for outcome in outcomes { #expect(await outcome.value == .delivered(project: harness.eu.fingerprint, status: 200)) }
        await sdk.settle()
        let events = harness.eventNames(receivedBy: "eu")
        #expect(events == (0..<60).map { "e\($0)" })
        let facts = try harness.closedFacts()
        #expect(!facts.contains { if case .callResolved(_, .discarded(.queueFull)) = $0 { true } else { false } })
    }

    @Test("a call made while a landed switch still replays its held calls queues behind them, and the next switch waits for the replay")
    func laterCallsQueueBehindTheReplay() async throws {
        let (harness, gate) = try SwitchContractTests.heldHarness(rules: EngineRules(gateCapacity: 200, queueCapacity: 5))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("events/track"), times: 1)
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)
        await gate.waitUntilHolding()
        sdk.setEmail("grace@example.com", completion: nil)
        for index in 0..<20 { sdk.track("held\(index)", completion: nil) }
        gate.release()
        _ = await switched.value
        #expect(await hold.waitUntilHeld(count: 1))
        // The queue is full (the first track is held on the wire): the rest stay behind the gate.
        guard case .replaying(let project, let held, _) = sdk.switchStatus else {
            Issue.record("expected the landed switch to be replaying, got \(sdk.switchStatus)")
            return
        }
        #expect(project == harness.eu.fingerprint && held > 0)
        sdk.track("after-landing", completion: nil)
        sdk.switchProject(to: harness.us2) { _ in }
        let facts = try #require(sdk.engineView()?.state)
        #expect(facts.switching.queue.count == 1 && facts.switching.inFlight == nil, "the next switch waits for the replay")
        hold.release()
        await sdk.settle()
        let events = harness.eventNames(receivedBy: "eu", in: harness.sandbox.requests(project: "eu"))
        // Everything replayed before the next switch began, in order; what was still queued on EU
        // when that switch purged the outgoing queue is discarded and journaled as such.
        let journal = try harness.closedFacts()
        let lastReplay = try #require(journal.lastIndex { if case .gateDecided(_, .replayed) = $0 { true } else { false } })
        let nextStart = try #require(journal.lastIndex { if case .switchStarted = $0 { true } else { false } })
        #expect(lastReplay < nextStart)
        let purged = journal.filter { if case .callResolved(_, .discarded(.purgedBySwitch)) = $0 { true } else { false } }.count
        #expect(events.count + purged == 21)
        #expect(events == Array(((0..<20).map { "held\($0)" } + ["after-landing"]).prefix(events.count)))
        #expect(!journal.contains { if case .callResolved(_, .discarded(.queueFull)) = $0 { true } else { false } })
    }
}
