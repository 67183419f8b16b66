import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// Late results stay in their instance: a message fetch answered after the outgoing project's
/// reset is refused and journaled, never shown on the next project; a refused link result carries
/// no destination.
@Suite("Field: late results stay in their instance", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct LateResultsTests {
    @Test("messages of the outgoing project answered after the teardown reset them, while the teardown goes on, never reach the next project",
          arguments: [MessageKind.inApp, .embedded])
    func fetchAnsweredDuringTeardown(kind: MessageKind) async throws {
        // The module of `kind` is still busy with the logout's hook when the switch resets its
        // messages: the reset step waits for it, and the teardown's window stays open.
        let busy = ControlledModule(name: kind == .inApp ? BuiltInModules.inApp : BuiltInModules.embedded, holdsAwaited: true)
        let watcher = StateWatcher()
        let modules: [any SDKModule] = kind == .inApp
            ? [busy, LifecycleModule(name: BuiltInModules.embedded), LifecycleModule(name: BuiltInModules.push)]
            : [LifecycleModule(name: BuiltInModules.inApp), busy, LifecycleModule(name: BuiltInModules.push)]
        let harness = try SDKHarness(modules: modules, observer: watcher.observer)
        let sdk = harness.sdk
        try harness.sandbox.setInAppMessages(Data(#"[{"messageId":"us-1"},{"messageId":"us-2"}]"#.utf8), project: "us")
        try harness.sandbox.setEmbeddedPlacements(Data(#"[{"embeddedMessages":[{"metadata":{"messageId":"us-e1"}}]}]"#.utf8), project: "us")
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let hold = ResponseHold()
        let endpoint = kind == .inApp ? "inApp/getMessages" : "embedded-messaging/messages"
        harness.sandbox.inject(.hold(hold), matching: .endpoint(endpoint))
        if kind == .inApp { sdk.fetchInAppMessages(count: 5) } else { sdk.fetchEmbeddedMessages() }
        #expect(await hold.waitUntilHeld(count: 1))
        sdk.logoutUser()                                      // the module's logout hook is held
        await busy.waitUntilHolding()
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)
        let reset = kind == .inApp ? TeardownStepKind.resetInApp : .resetEmbedded
        await watcher.until { $0.switching.inFlight?.step == reset }
        hold.release()                                        // the outgoing fetch is answered now
        await watcher.until { state in !state.tasks.values.contains { $0.task.path == endpoint } }
        busy.release()
        _ = await switched.value
        await sdk.settle()
        #expect(sdk.inAppMessageIDs.isEmpty && sdk.embeddedMessageIDs.isEmpty, "EU shows none of US's messages")
        let facts = try harness.closedFacts()
        #expect(facts.contains { if case .staleResultRefused(_, let what, _, _) = $0 { what.contains("reset") } else { false } })
        #expect(!facts.contains { if case .messagesStored = $0 { true } else { false } })
    }

    @Test("a link resolved after the instance that asked was replaced is refused, and its result carries no destination")
    func refusedLinkHasNoDestination() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("a/late"))
        let url = harness.sandbox.setTrackedLink(TrackedLink(code: "late", project: "us", destination: "https://shop.example.com/offer",
                                                             campaignID: 1, templateID: 2, messageID: "m-late"))
        let late = Eventually<UniversalLinkResult>()
        sdk.handleUniversalLink(url, completion: late.completion)
        #expect(await hold.waitUntilHeld(count: 1))
        _ = await sdk.outcome.switchProject(to: harness.eu)
        hold.release()
        let result = await late.value
        guard case .failed(.rejected) = result.outcome else {
            Issue.record("expected the late link to be refused, got \(result.outcome)")
            return
        }
        #expect(result.destination == nil, "the app is not sent where a refused link leads")
    }
}
