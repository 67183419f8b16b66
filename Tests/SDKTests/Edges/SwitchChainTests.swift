import Foundation
import Journal
import Locking
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 8: the switch queue never holds two entries for one project.
@Suite("Edges: the switch chain is bounded", .timeLimit(.minutes(1)))
struct SwitchChainTests {
    @Test("alternating A and B a thousand times during one long switch costs at most two more teardowns and ends on the last asked; every callback fires once")
    func alternatingTaps() async throws {
        let (harness, gate) = try SwitchContractTests.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let fired = Locked(0)
        let all = Eventually<Int>()
        sdk.switchProject(to: harness.eu) { _ in if fired.withLock({ $0 += 1; return $0 }) == 2_001 { all.completion(2_001) } }
        await gate.waitUntilHolding()
        for index in 0..<2_000 {
            let project = index.isMultiple(of: 2) ? harness.us2 : harness.us
            sdk.switchProject(to: project) { _ in if fired.withLock({ $0 += 1; return $0 }) == 2_001 { all.completion(2_001) } }
        }
        let state = try #require(sdk.engineView()?.state)
        #expect(state.switching.queue.count == 2)
        gate.release()
        _ = await all.value
        await sdk.settle()
        #expect(sdk.liveProject == harness.us.fingerprint, "the last request asked for us")
        let facts = try harness.closedFacts()
        let started = facts.filter { if case .switchStarted = $0 { true } else { false } }
        #expect(started.count == 3)
        #expect(SwitchContractTests.routings(facts).contains { if case .moved = $0 { true } else { false } })
    }

    @Test("C, D, C with the first C starting at once is still three switches and ends on C")
    func cdcIsThreeSwitches() async throws {
        let (harness, gate) = try SwitchContractTests.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        sdk.switchProject(to: harness.eu) { _ in }
        await gate.waitUntilHolding()
        sdk.switchProject(to: harness.us2) { _ in }
        let last = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: last.completion)
        gate.release()
        _ = await last.value
        await sdk.settle()
        #expect(sdk.liveProject == harness.eu.fingerprint)
        let facts = try harness.closedFacts()
        #expect(facts.filter { if case .switchStarted = $0 { true } else { false } }.count == 3)
    }
}
