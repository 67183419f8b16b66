import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 4: "the callbacks ran" holds on any callback queue, a concurrent one included.
@Suite("Edges: concurrent callback queues", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct CallbackQueueTests {
    @Test("on a concurrent callback queue, a setEmail made from a switch's callback lands on the project that callback reported, not the next queued one")
    func callbackCallLandsOnItsProject() async throws {
        let queue = DispatchQueue(label: "app.callbacks", attributes: .concurrent)
        let sdk = try SDKHarness(callbackQueue: queue)
        let app = sdk.sdk
        await app.outcome.initialize(sdk.us)
        let entered = Eventually<Int>()
        let release = DispatchSemaphore(value: 0)
        app.switchProject(to: sdk.eu) { _ in
            entered.completion(1)
            release.wait()                      // the app takes its time in the callback
            app.setEmail("from-eu-callback@example.com", completion: nil)
        }
        app.switchProject(to: sdk.us2) { _ in }
        _ = await entered.value
        // While the callback runs, the next switch must not start.
        let state = try #require(app.engineView()?.state)
        #expect(state.switching.inFlight == nil && state.live?.fingerprint == sdk.eu.fingerprint)
        release.signal()
        await app.settle()
        let facts = try sdk.closedFacts()
        // The setEmail ran on EU (executed there), before the switch to us2 began.
        var setEmailOn: ProjectFingerprint?
        var emailCall: CallID?
        for fact in facts {
            if case .callReceived(let received) = fact, case .setEmail("from-eu-callback@example.com") = received.call { emailCall = received.id }
            if case .gateDecided(let call, .executed(let project)) = fact, call == emailCall { setEmailOn = project }
            if case .gateDecided(let call, .replayed(_, let project)) = fact, call == emailCall { setEmailOn = project }
        }
        #expect(setEmailOn == sdk.eu.fingerprint)
    }
}
