import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

@Suite("Switch: basics", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct SwitchBasicsTests {
    @Test("a switch disables the outgoing device, clears identity, lands on the new project and replays calls made meanwhile")
    func basicSwitch() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        sdk.setEmail("ada@example.com", completion: nil)
        sdk.registerToken("token-1", completion: nil)
        await sdk.outcome.track("before")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("users/disableDevice"))

        let result = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: result.completion)
        sdk.setEmail("grace@example.com", completion: nil)
        sdk.track("during", completion: nil)
        let outcome = await result.value
        #expect(outcome == .switchedCleanly)
        #expect(sdk.liveProject == harness.eu.fingerprint)
        #expect(sdk.email == "grace@example.com")
        // The switch landed while the outgoing disable was still held on the wire.
        #expect(await hold.waitUntilHeld(count: 1))
        hold.release()
        await sdk.settle()

        let eu = harness.received(by: "eu")
        #expect(eu.map(\.endpoint).contains("events/track"))
        #expect(eu.first { $0.endpoint == "events/track" }?.jsonObject?["email"] as? String == "grace@example.com")
        #expect(!eu.contains { ($0.jsonObject?["email"] as? String) == "ada@example.com" })
        let us = harness.sandbox.requests(project: "us")
        let disable = try #require(us.first { $0.endpoint == "users/disableDevice" })
        #expect(disable.jsonObject?["token"] as? String == "token-1")
        #expect(disable.region == "us")
        // Read once the SDK is shut down: `settle()` does not wait for the journal's writer, so
        // the last records may not be in the files yet (it failed so once in CI).
        let facts = try harness.closedFacts()
        #expect(facts.contains { if case .switchLanded(_, _, .switchedCleanly, _) = $0 { true } else { false } })
    }

    @Test("a teardown waits for one durability confirmation, the outgoing disable's, and for nothing else on the disk")
    func oneDurabilityWaitPerTeardown() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-1")
        #expect(await sdk.outcome.switchProject(to: harness.eu) == .switchedCleanly)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-2")
        #expect(await sdk.outcome.switchProject(to: harness.us) == .switchedCleanly)
        let facts = try harness.closedFacts()
        var inWindow = false
        var waits: [[DurabilityWait]] = []
        for fact in facts {
            switch fact {
            case .switchStarted: inWindow = true; waits.append([])
            case .switchLanded: inWindow = false
            case .durabilityRequested(_, let purpose) where inWindow: waits[waits.count - 1].append(purpose)
            default: break
            }
        }
        #expect(waits.count == 2)
        for (index, teardown) in waits.enumerated() {
            #expect(teardown.count == 1, "switch \(index + 1) waited on \(teardown)")
            #expect(teardown.allSatisfy { if case .teardownDisable = $0 { true } else { false } })
        }
    }
}
