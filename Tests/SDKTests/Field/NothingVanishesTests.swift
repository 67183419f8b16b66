import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// Every call the SDK accepted ends in exactly one journaled outcome, and what it queued on its
/// own behalf (a held event, the push token's re-registration) is never dropped without a record.
@Suite("Field: nothing vanishes without a record", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct NothingVanishesTests {
    @Test("events held for an unknown user hold their room in the queue: identifying the user into a full queue sends them all")
    func heldEventsKeepTheirRoom() async throws {
        let (harness, network) = try SDKHarness.withSwitchableNetwork(rules: EngineRules(queueCapacity: 4))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        network.goOffline()
        for index in 0..<2 { sdk.track("held-\(index)") }                 // no user yet: held, room kept
        var opens: [Eventually<CallOutcome>] = []
        for index in 0..<4 {
            let outcome = Eventually<CallOutcome>()
            opens.append(outcome)
            sdk.trackInAppOpen(messageID: "m\(index)", completion: outcome.completion)
        }
        await sdk.settle()
        // Two slots are the held events': two of the four opens fit, two are refused at once.
        #expect(opens.filter { $0.current == .discarded(.queueFull(capacity: 4)) }.count == 2)
        sdk.setEmail("ada@example.com")
        network.goOnline()
        sdk.networkBecameReachable()
        await sdk.settle()
        #expect(harness.eventNames(receivedBy: "us") == ["held-0", "held-1"])
    }

    /// Found by the simulator (`replay simulate --seed 4521 --steps 40`): a disable, which the
    /// queue's bounds never refuse, took the room the held events kept, and identifying the user
    /// then discarded one of them, whose call had been told it was applied.
    @Test("a disable queued past the queue's bound does not take the room held events keep: identifying the user still sends them all")
    func disableDoesNotTakeHeldRoom() async throws {
        let network = SwitchableNetwork(base: PatientTransport(base: URLSessionTransport()))
        let harness = try SDKHarness(rules: EngineRules(queueCapacity: 4), transport: network)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.registerToken("token-1")
        network.goOffline()
        for index in 0..<2 { sdk.track("held-\(index)") }                 // no user yet: held, room kept
        for index in 0..<2 { sdk.trackInAppOpen(messageID: "m\(index)") }  // the rest of the queue
        sdk.disableDevice()                                              // queued past the bound
        await sdk.outcome.setEmail("ada@example.com")
        network.goOnline()
        sdk.networkBecameReachable()
        await sdk.settle()
        #expect(harness.eventNames(receivedBy: "us") == ["held-0", "held-1"])
        let discarded = try harness.closedFacts().filter {
            if case .taskCompleted(_, .discarded(.queueFull)) = $0 { true } else { false }
        }
        #expect(discarded.count == 1, "only the re-registration finds no room: \(discarded)")
    }

    @Test("the push token's re-registration that finds the queue full is journaled as a task made and discarded, not dropped")
    func registrationIntoFullQueueIsJournaled() async throws {
        let (harness, network) = try SDKHarness.withSwitchableNetwork(rules: EngineRules(queueCapacity: 2))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.registerToken("token-1")               // no user: kept, registered once the user is known
        network.goOffline()
        for index in 0..<2 { sdk.trackInAppOpen(messageID: "m\(index)") }  // the queue is full
        await sdk.outcome.setEmail("ada@example.com")
        let facts = try harness.closedFacts()
        guard let queued = facts.lazy.compactMap({ fact -> DeliveryTask? in
            if case .taskQueued(let task) = fact, task.path == "users/registerDeviceToken" { task } else { nil }
        }).first else {
            Issue.record("the re-registration left no record")
            return
        }
        #expect(queued.user == .email("ada@example.com"))
        #expect(facts.contains(.taskCompleted(task: queued.id, outcome: .discarded(.queueFull(capacity: 2)))))
    }

    @Test("every call made through a story with offline stretches, a full queue and a logout ends in exactly one journaled outcome")
    func exactlyOneOutcome() async throws {
        let (harness, network) = try SDKHarness.withSwitchableNetwork(rules: EngineRules(queueCapacity: 6))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        for index in 0..<3 { sdk.track("anonymous-\(index)") }
        network.goOffline()
        await sdk.outcome.setEmail("ada@example.com")
        for index in 0..<8 { sdk.track("offline-\(index)") }
        sdk.logoutUser()
        sdk.setUserId("bob")
        for index in 0..<3 { sdk.track("bob-\(index)") }
        network.goOnline()
        sdk.networkBecameReachable()
        await RandomStory.drain(harness)
        var received: [CallID] = []
        var outcomes: [CallID: Int] = [:]
        for fact in try harness.closedFacts() {
            if case .callReceived(let call) = fact { received.append(call.id) }
            for (call, _) in fact.resolutions { outcomes[call, default: 0] += 1 }
        }
        for call in received { #expect(outcomes[call] == 1, "call \(call): \(outcomes[call] ?? 0) outcome(s)") }
    }
}
