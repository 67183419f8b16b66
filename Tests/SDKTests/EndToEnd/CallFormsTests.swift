import Foundation
import Locking
import Sandbox
import Testing
@testable import SDK

/// The two forms of a call: on the SDK it is synchronous and returns at once wherever it is made
/// (in `async` code too, without `await`); on `sdk.outcome` it awaits the outcome.
@Suite("Call forms: fire and forget, or await the outcome", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct CallFormsTests {
    @Test("in async code the plain call returns at once while its request is held; the awaited form returns once the project answered")
    func plainAndAwaited() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        sdk.initialize(harness.us)
        sdk.setEmail("ada@example.com")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("events/track"), times: 1)
        let finished = Locked(false)
        let awaited = Task {
            let outcome = await sdk.outcome.track("awaited")
            finished.withLock { $0 = true }
            return outcome
        }
        #expect(await hold.waitUntilHeld(count: 1))
        let heard = Locked<[CallOutcome]>([])
        sdk.track("plain") { outcome in heard.withLock { $0.append(outcome) } }   // made and returned while the request is held
        sdk.track("plain-without-completion")
        #expect(!finished.withLock { $0 }, "the awaited form waits for the project's answer")
        #expect(heard.withLock { $0 }.isEmpty)
        hold.release()
        #expect(await awaited.value == .delivered(project: harness.us.fingerprint, status: 200))
        await sdk.settle()
        #expect(heard.withLock { $0 } == [.delivered(project: harness.us.fingerprint, status: 200)])
        #expect(harness.sandbox.deliveredEvents(project: "us").map(\.eventName) == ["awaited", "plain", "plain-without-completion"])
    }

    @Test("the awaited forms of initialize, switchProject and handleUniversalLink return what their completions receive")
    func awaitedProjects() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        #expect(await sdk.outcome.initialize(harness.us) == .applied(project: harness.us.fingerprint))
        #expect(sdk.liveProject == harness.us.fingerprint)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-1")
        #expect(await sdk.outcome.switchProject(to: harness.eu) == .switchedCleanly)
        #expect(sdk.liveProject == harness.eu.fingerprint)
        let link = await sdk.outcome.handleUniversalLink(URL(string: "https://example.com/shoes")!)
        #expect(link.outcome == .applied(project: harness.eu.fingerprint) && link.destination == "https://example.com/shoes")
    }
}
