import Foundation
import Journal
import Locking
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 10: what an app needs around a switch.
@Suite("Edges: switch status, async initialize, bounded settle", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct SwitchStatusTests {
    @Test("initialize has an async form that returns once the instance started")
    func asyncInitialize() async throws {
        let harness = try SDKHarness()
        #expect(await harness.sdk.outcome.initialize(harness.us) == .applied(project: harness.us.fingerprint))
        #expect(harness.sdk.switchStatus == .idle(project: harness.us.fingerprint))
    }

    @Test("a stream opened once initialize returned starts with the project initialize applied, not a status published before")
    func streamStartsWithTheStatusNow() async throws {
        for _ in 0..<40 {
            let harness = try SDKHarness()
            await harness.sdk.outcome.initialize(harness.us)
            var updates = harness.sdk.switchStatusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .idle(project: harness.us.fingerprint))
            harness.sdk.shutdown()
            #expect(await updates.next() == nil, "the stream finishes at shutdown without hearing the same status again")
        }
    }

    @Test("the switch status shows the switch, its step and its held calls, and is followed as a stream until shutdown")
    func statusStream() async throws {
        let (harness, gate) = try SwitchContractTests.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let updates = sdk.switchStatusUpdates()
        let collected = Task {
            var seen: [SwitchStatus] = []
            for await status in updates { seen.append(status) }
            return seen
        }
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)
        await gate.waitUntilHolding()
        sdk.track("held", completion: nil)
        guard case .switching(let from, let to, let step, let held, _) = sdk.switchStatus else {
            Issue.record("expected a switch in progress, got \(sdk.switchStatus)")
            return
        }
        #expect(from == harness.us.fingerprint && to == harness.eu.fingerprint && step == .releaseInstance && held == 1)
        gate.release()
        _ = await switched.value
        await sdk.settle()
        #expect(sdk.switchStatus == .idle(project: harness.eu.fingerprint))
        sdk.shutdown()
        let seen = await collected.value
        #expect(seen.first == .idle(project: harness.us.fingerprint))
        #expect(seen.contains { if case .switching(_, harness.eu.fingerprint, _, _, _) = $0 { true } else { false } })
        #expect(seen.last == .idle(project: harness.eu.fingerprint))
    }

    @Test("settle with a timeout gives up when something stays in flight, and succeeds once it is done")
    func settleWithTimeout() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("events/track"))
        sdk.track("held", completion: nil)
        #expect(await hold.waitUntilHeld(count: 1))
        // Its bound is the timer due exactly five seconds from now (the clock stands still):
        // waiting for any new timer, the test could take another for it (one the held request
        // set late, under a slow run) and advance the clock before the bound was set.
        let due = harness.clock.now().advanced(by: .seconds(5))
        let timers = harness.clock.pendingTimers(dueAt: due)
        let settling = Task { await sdk.settle(timeout: .seconds(5)) }
        var spins = 0
        while harness.clock.pendingTimers(dueAt: due) == timers && spins < 1_000_000 {
            spins += 1
            await Task.yield()
        }
        #expect(harness.clock.pendingTimers(dueAt: due) > timers, "settle(timeout:) set no timer on the SDK's clock")
        harness.clock.advance(by: .seconds(6))
        #expect(await settling.value == false)
        hold.release()
        #expect(await sdk.settle(timeout: .seconds(5)))
    }
}
