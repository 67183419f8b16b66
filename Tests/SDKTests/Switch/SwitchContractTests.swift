import Dispatch
import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// The switch contract end to end: what needs real threads, URLSession, the loopback Sandbox or a
/// module of the app's own (the callback queue, modules that fail or never return, what a switch
/// clears in the modules). The rules themselves are asserted fact by fact, without threads, in
/// `SwitchContractStoreTests`. Each test fails without its rule.
@Suite("Switch contract", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct SwitchContractTests {
    /// A harness whose switches hold open (a module waits in willSwitchProject) until released.
    static func heldHarness(rules: EngineRules = EngineRules()) throws -> (SDKHarness, ControlledModule) {
        let holder = ControlledModule(name: "holder", holdsAwaited: true)
        let harness = try SDKHarness(rules: rules, modules: [LifecycleModule(name: BuiltInModules.inApp),
                                                             LifecycleModule(name: BuiltInModules.embedded), holder])
        return (harness, holder)
    }

    static func landed(_ facts: [Fact]) -> [(SwitchID, ProjectFingerprint, SwitchResult, [String])] {
        facts.compactMap { if case .switchLanded(let id, let project, let result, let reasons) = $0 { (id, project, result, reasons) } else { nil } }
    }

    static func routings(_ facts: [Fact]) -> [SwitchRouting] {
        facts.compactMap { if case .switchRouted(_, _, _, let routing) = $0 { routing } else { nil } }
    }

    // MARK: - What a switch clears and rebuilds

    @Test("identity, unknown-user events, attribution and messages are cleared; the old instance is released and a new one started; requests go to the new region")
    func clearsAndRebuilds() async throws {
        let inApp = LifecycleModule(name: BuiltInModules.inApp)
        let harness = try SDKHarness(modules: [inApp, LifecycleModule(name: BuiltInModules.embedded)])
        let sdk = harness.sdk
        try harness.sandbox.setInAppMessages(Data(#"[{"messageId":"m-us-1"}]"#.utf8), project: "us")
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.track("anonymous")                       // held for the unknown user
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 1, templateID: 2, messageID: "m"))
        await sdk.outcome.fetchInAppMessages()
        #expect(sdk.inAppMessageIDs == ["m-us-1"])
        sdk.setEmail(nil, completion: nil)
        await sdk.outcome.track("held-again")
        sdk.setEmail("ada@example.com", completion: nil)

        let result = await sdk.outcome.switchProject(to: harness.eu)
        #expect(result == .switchedWithWarnings, "no push token: noisy, as for any app without one")
        #expect(sdk.email == nil && sdk.userId == nil)
        #expect(sdk.attributionInfo == nil)
        #expect(sdk.inAppMessageIDs.isEmpty)
        #expect(sdk.liveProject == harness.eu.fingerprint)
        await sdk.outcome.setEmail("grace@example.com")
        await sdk.outcome.track("on-eu")
        await sdk.settle()
        #expect(harness.received(by: "eu").map(\.endpoint) == ["events/track"])
        #expect(harness.received(by: "eu").allSatisfy { $0.region == "eu" })

        let instances = inApp.instances
        #expect(instances.map(\.project) == [harness.us.fingerprint, harness.eu.fingerprint])
        #expect(inApp.signals(for: instances[0]) == [.initialize, .start, .reset, .willSwitchProject(to: harness.eu.fingerprint), .deinitialize])
        #expect(inApp.signals(for: instances[1]) == [.initialize, .start])
        let state = try #require(sdk.engineView()?.state)
        #expect(state.heldEvents.isEmpty && state.unknownUserSessions == 0)
    }

    // MARK: - The callback queue

    @Test("completions run on the configured queue")
    func completionsOnConfiguredQueue() async throws {
        let queue = DispatchQueue(label: "app.callbacks")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "app")
        let harness = try SDKHarness(callbackQueue: queue)
        await harness.sdk.outcome.initialize(harness.us)
        let onQueue = Eventually<Bool>()
        harness.sdk.switchProject(to: harness.eu) { _ in onQueue.completion(DispatchQueue.getSpecific(key: key) == "app") }
        #expect(await onQueue.value)
        let callOnQueue = Eventually<Bool>()
        harness.sdk.track("x") { _ in callOnQueue.completion(DispatchQueue.getSpecific(key: key) == "app") }
        #expect(await callOnQueue.value)
    }

    // MARK: - Warnings and initialization

    @Test("a module whose overrun hook never returns: the next instance's start is bounded too, and the switch lands noisy")
    func moduleOverrunNeverReturns() async throws {
        let (harness, holder) = try Self.heldHarness()
        await harness.sdk.outcome.initialize(harness.us)
        let result = Eventually<SwitchResult>()
        harness.sdk.switchProject(to: harness.eu, completion: result.completion)
        await holder.waitUntilHolding()
        _ = harness.sdk.engineView()
        harness.clock.advance(by: .milliseconds(2_001))
        _ = harness.sdk.engineView()
        harness.clock.advance(by: .milliseconds(2_001))
        #expect(await result.value == .switchedWithWarnings)
        #expect(harness.sdk.liveProject == harness.eu.fingerprint)
        #expect(holder.overlapped.isEmpty)
        let facts = try harness.closedFacts()
        let reasons = Self.landed(facts).first?.3 ?? []
        #expect(reasons.contains { $0.contains("overran") && $0.contains("start") }, "\(reasons)")
        holder.release()
    }

    @Test("a module's failure in its old instance is not the new instance's failed start")
    func oldFailureStaysInItsInstance() async throws {
        let fragile = ControlledModule(name: "fragile", failsOn: .deinitialize)
        let harness = try SDKHarness(modules: [fragile])
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        await harness.sdk.outcome.registerToken("token-1")
        #expect(await harness.sdk.outcome.switchProject(to: harness.eu) == .switchedCleanly)
        let facts = try harness.closedFacts()
        #expect(!facts.contains { if case .moduleHookFinished(_, let problem?) = $0 { problem.contains("start") } else { false } })
    }

    @Test("a failed start makes the switch noisy; the SDK is still on the new project")
    func failedStart() async throws {
        let failing = ControlledModule(name: "fragile", failsOn: .start)
        let harness = try SDKHarness(modules: [failing])
        await harness.sdk.outcome.initialize(harness.us)
        #expect(await harness.sdk.outcome.switchProject(to: harness.eu) == .switchedWithWarnings)
        #expect(harness.sdk.liveProject == harness.eu.fingerprint)
    }

    @Test("before initialization a switch is an initialization: warnings when the start fails")
    func switchBeforeInitializationFailedStart() async throws {
        let failing = try SDKHarness(modules: [ControlledModule(name: "fragile", failsOn: .start)])
        #expect(await failing.sdk.outcome.switchProject(to: failing.eu) == .switchedWithWarnings)
        #expect(failing.sdk.liveProject == failing.eu.fingerprint)
    }

    @Test("blank keys cannot build a project", arguments: ["", " ", "\n\t ", "   \u{2003}"])
    func blankKeys(key: String) {
        #expect(Project(apiKey: key) == nil)
    }

}
