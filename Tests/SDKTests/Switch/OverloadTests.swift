import Foundation
import Locking
import Testing
import TestSupport
@testable import SDK

/// A burst of calls far beyond every bound, made while a switch is held open.
@Suite("Overload", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct OverloadTests {
    /// 100,000 calls by default; `make reliability` makes it a million (OVERLOAD_CALLS).
    static let calls = ProcessInfo.processInfo.environment["OVERLOAD_CALLS"].flatMap(Int.init) ?? 100_000

    /// What the burst's completions reported.
    final class Tally: Sendable {
        private let counts = Locked([String: Int]())

        func record(_ outcome: CallOutcome) {
            let key = switch outcome {
            case .delivered: "delivered"
            case .discarded(.gateFull): "gateFull"
            case .discarded(.queueFull): "queueFull"
            default: "other: \(outcome)"
            }
            counts.withLock { $0[key, default: 0] += 1 }
        }

        var snapshot: [String: Int] { counts.withLock { $0 } }
    }

    @Test("a burst during a held switch: the gate holds its bound, the rest is rejected and journaled, memory stays bounded, the engine recovers")
    func burstDuringHeldSwitch() async throws {
        // The gate and the queue at their largest (`SDKConfiguration.Ranges`).
        let rules = EngineRules(gateCapacity: SDKConfiguration.Ranges.gateCapacity.upperBound)
        let (harness, gate) = try SwitchContractTests.heldHarness(rules: rules)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)
        await gate.waitUntilHolding()
        // The identity the held calls will carry to the new project (the switch clears the old one).
        sdk.setEmail("grace@example.com", completion: nil)
        let held = rules.gateCapacity - 1

        let tally = Tally()
        let done = Eventually<Void>()
        let resolved = Locked(0)
        let total = Self.calls
        let completion: @Sendable (CallOutcome) -> Void = { outcome in
            tally.record(outcome)
            if resolved.withLock({ $0 += 1; return $0 }) == total { done.completion(()) }
        }
        // Two callers, as fast as they can: the mailbox makes them wait rather than grow. (They
        // run on threads of their own: waiting here must not hold a thread of the shared pool.)
        await onOwnThread {
            DispatchQueue.concurrentPerform(iterations: 2) { caller in
                for index in 0..<(total / 2) { sdk.track("c\(caller)-\(index)", completion: completion) }
            }
        }
        #expect(sdk.mailboxHighWaterMark <= sdk.mailboxCapacity + 64, "the mailbox grew past its bound")
        print("Overload: \(total) calls, mailbox high-water mark \(sdk.mailboxHighWaterMark) of \(sdk.mailboxCapacity)")

        // The gate is full and the switch still held: everything beyond the bound was refused.
        let view = try #require(sdk.engineView())
        #expect(view.state.switching.gate.count == rules.gateCapacity)
        #expect(switched.current == nil)

        gate.release()
        #expect(await switched.value == .switchedWithWarnings)   // no push token to disable
        await done.value
        await sdk.settle()
        let counts = tally.snapshot
        #expect(counts == ["gateFull": total - held, "delivered": held], "\(counts)")

        // The engine recovered: a call after the landing goes straight to the new project.
        #expect(await sdk.outcome.track("after-the-burst") == .delivered(project: harness.eu.fingerprint, status: 200))
        let state = try #require(sdk.engineView()?.state)
        #expect(state.pendingCalls.isEmpty && state.switching.gate.isEmpty)
        #expect(harness.eventNames(receivedBy: "eu").count == held + 1)

        // Every refusal is in the journal, naming the bound.
        let facts = try harness.closedFacts()
        let refusals = facts.filter { if case .gateDecided(_, .refused) = $0 { true } else { false } }.count
        let gateFull = facts.filter { if case .callResolved(_, .discarded(.gateFull(capacity: rules.gateCapacity))) = $0 { true } else { false } }.count
        #expect(refusals == total - held)
        #expect(gateFull == total - held)
        let landing = try #require(facts.firstIndex { if case .switchLanded = $0 { true } else { false } })
        let lastRefusal = try #require(facts.lastIndex { if case .gateDecided(_, .refused) = $0 { true } else { false } })
        #expect(lastRefusal < landing)
    }
}
