import Dispatch
import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// The switch contract, rule by rule. Each test fails without its rule.
@Suite("Switch contract", .timeLimit(.minutes(3)))
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
        #expect(inApp.events(for: instances[0]) == [.initialize, .start, .reset, .willSwitchProject(to: harness.eu.fingerprint), .deinitialize])
        #expect(inApp.events(for: instances[1]) == [.initialize, .start])
        let state = try #require(sdk.engineView()?.state)
        #expect(state.heldEvents.isEmpty && state.unknownUserSessions == 0)
    }

    // MARK: - The gate

    @Test("calls made during the window land on the new project, in call order, after the gate's replay")
    func gatedCallsReplayInOrder() async throws {
        let (harness, holder) = try Self.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)
        await holder.waitUntilHolding()
        sdk.setEmail("grace@example.com", completion: nil)
        for index in 0..<20 { sdk.track("e\(index)", completion: nil) }
        sdk.updateUser(dataFields: ["plan": "pro"], completion: nil)
        #expect(switched.current == nil)
        holder.release()
        _ = await switched.value
        await sdk.settle()
        let eu = harness.received(by: "eu")
        #expect(harness.eventNames(receivedBy: "eu") == (0..<20).map { "e\($0)" })
        #expect(eu.last?.endpoint == "users/update")
        #expect(eu.filter { $0.endpoint != "events/trackBulk" }.allSatisfy { ($0.jsonObject?["email"] as? String) == "grace@example.com" })
        #expect(harness.sandbox.deliveredEvents(project: "eu").allSatisfy { $0.email == "grace@example.com" })
        #expect(harness.eventNames(receivedBy: "us").isEmpty)
        let facts = try harness.closedFacts()
        let replayed = facts.filter { if case .gateDecided(_, .replayed) = $0 { true } else { false } }
        #expect(replayed.count == 22)
    }

    @Test("a call made as the switch lands never overtakes older held calls")
    func landingCallDoesNotOvertake() async throws {
        let (harness, holder) = try Self.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        sdk.switchProject(to: harness.eu) { _ in }
        await holder.waitUntilHolding()
        sdk.setEmail("grace@example.com", completion: nil)
        sdk.track("held", completion: nil)
        holder.release()
        sdk.track("made-as-it-lands", completion: nil)
        await sdk.settle()
        let events = harness.received(by: "eu").compactMap { $0.jsonObject?["eventName"] as? String }
        let held = try #require(events.firstIndex(of: "held"))
        let late = try #require(events.firstIndex(of: "made-as-it-lands"))
        #expect(held < late)
    }

    @Test("a push tapped mid-switch is tracked against the outgoing project, not the new one, and its completion is not held")
    func pushMidSwitchGoesToOutgoing() async throws {
        let (harness, holder) = try Self.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        sdk.switchProject(to: harness.eu) { _ in }
        await holder.waitUntilHolding()
        let open = await sdk.outcome.trackPushOpen(PushOpen(campaignID: 11, templateID: 12, messageID: "us-msg", appAlreadyRunning: true))
        #expect(open == .delivered(project: harness.us.fingerprint, status: 200), "resolved while the switch is still held")
        let handled = await sdk.outcome.handlePush(payload: ["itbl": ["campaignId": 11, "templateId": 12, "messageId": "us-msg-2"]])
        #expect(handled == .delivered(project: harness.us.fingerprint, status: 200))
        holder.release()
        await sdk.settle()
        #expect(harness.received(by: "us").filter { $0.endpoint == "events/trackPushOpen" }.count == 2)
        #expect(!harness.received(by: "eu").contains { $0.endpoint == "events/trackPushOpen" })
    }

    @Test("a switch to the live project with nothing running is a no-op that reports clean")
    func noopSwitch() async throws {
        let harness = try SDKHarness()
        await harness.sdk.outcome.initialize(harness.us)
        #expect(await harness.sdk.outcome.switchProject(to: harness.us) == .switchedCleanly)
        let facts = try harness.closedFacts()
        #expect(Self.routings(facts) == [.noop])
        #expect(Self.landed(facts).isEmpty)
    }

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

    // MARK: - Routing

    @Test("a double tap runs one teardown and fires both callbacks")
    func doubleTap() async throws {
        let (harness, holder) = try Self.heldHarness()
        await harness.sdk.outcome.initialize(harness.us)
        let first = Eventually<SwitchResult>(), second = Eventually<SwitchResult>()
        harness.sdk.switchProject(to: harness.eu, completion: first.completion)
        harness.sdk.switchProject(to: harness.eu, completion: second.completion)
        holder.release()
        _ = await first.value
        _ = await second.value
        await harness.sdk.settle()
        let facts = try harness.closedFacts()
        #expect(Self.landed(facts).count == 1)
        #expect(facts.filter { if case .switchStarted = $0 { true } else { false } }.count == 1)
        #expect(Self.routings(facts).count == 2)
        #expect(first.deliveries == 1 && second.deliveries == 1)
    }

    @Test("C, D, C runs three switches and ends on C")
    func chainEndsOnLastRequested() async throws {
        let (harness, holder) = try Self.heldHarness()
        await harness.sdk.outcome.initialize(harness.us)
        let results = (0..<3).map { _ in Eventually<SwitchResult>() }
        harness.sdk.switchProject(to: harness.eu, completion: results[0].completion)
        harness.sdk.switchProject(to: harness.us2, completion: results[1].completion)
        harness.sdk.switchProject(to: harness.eu, completion: results[2].completion)
        holder.release()
        for result in results { _ = await result.value }
        #expect(harness.sdk.liveProject == harness.eu.fingerprint)
        let facts = try harness.closedFacts()
        #expect(Self.landed(facts).map(\.1) == [harness.eu.fingerprint, harness.us2.fingerprint, harness.eu.fingerprint])
    }

    @Test("with A to B in flight, a request for A is queued (not 'already there') and the SDK ends on A")
    func requestForOutgoingIsQueued() async throws {
        let (harness, holder) = try Self.heldHarness()
        await harness.sdk.outcome.initialize(harness.us)
        harness.sdk.switchProject(to: harness.eu) { _ in }
        await holder.waitUntilHolding()
        let back = Eventually<SwitchResult>()
        harness.sdk.switchProject(to: harness.us, completion: back.completion)
        holder.release()
        _ = await back.value
        #expect(harness.sdk.liveProject == harness.us.fingerprint)
        let facts = try harness.closedFacts()
        #expect(Self.routings(facts) == [.started, .enqueued(behind: SwitchID(1))])
        #expect(Self.landed(facts).map(\.1) == [harness.eu.fingerprint, harness.us.fingerprint])
    }

    @Test("with B in flight and C queued, a request for B goes after C and the SDK ends on B")
    func requestForInFlightGoesAfterQueued() async throws {
        let (harness, holder) = try Self.heldHarness()
        await harness.sdk.outcome.initialize(harness.us)
        harness.sdk.switchProject(to: harness.eu) { _ in }
        await holder.waitUntilHolding()
        harness.sdk.switchProject(to: harness.us2) { _ in }
        let last = Eventually<SwitchResult>()
        harness.sdk.switchProject(to: harness.eu, completion: last.completion)
        holder.release()
        _ = await last.value
        #expect(harness.sdk.liveProject == harness.eu.fingerprint)
        let facts = try harness.closedFacts()
        #expect(Self.routings(facts) == [.started, .enqueued(behind: SwitchID(1)), .enqueued(behind: SwitchID(2))])
        #expect(Self.landed(facts).map(\.1) == [harness.eu.fingerprint, harness.us2.fingerprint, harness.eu.fingerprint])
    }

    @Test("a setEmail made from a switch's callback lands on the project that callback reported, even with another switch queued")
    func setEmailFromCallback() async throws {
        let (harness, holder) = try Self.heldHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let fromCallback = Eventually<CallOutcome>()
        sdk.switchProject(to: harness.eu) { _ in
            sdk.setEmail("from-callback@example.com", completion: nil)
            sdk.track("from-callback", completion: fromCallback.completion)
        }
        await holder.waitUntilHolding()
        let done = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.us2, completion: done.completion)
        holder.release()
        #expect(await fromCallback.value == .delivered(project: harness.eu.fingerprint, status: 200))
        _ = await done.value
        await sdk.settle()
        #expect(harness.received(by: "eu").contains { $0.jsonObject?["email"] as? String == "from-callback@example.com" })
        #expect(!harness.received(by: "us2").contains { $0.endpoint == "events/track" })
    }

    // MARK: - The outgoing disable

    @Test("a queued disable survives the switch and a restart and is still delivered to the outgoing project's region")
    func disableSurvivesSwitchAndRestart() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-us")
        harness.sandbox.inject(.status(503), matching: .endpoint("users/disableDevice"), times: 100)
        #expect(await sdk.outcome.switchProject(to: harness.eu) == .switchedCleanly)
        await sdk.outcome.track("eu-event")
        await sdk.settle()
        #expect(!harness.received(by: "us").contains { $0.endpoint == "users/disableDevice" })

        let restarted = try harness.restarted()
        harness.sandbox.removeAllFaults()
        await restarted.sdk.outcome.initialize(restarted.eu)
        await RandomStory.drain(restarted)
        let disables = restarted.received(by: "us").filter { $0.endpoint == "users/disableDevice" }
        #expect(disables.count == 1)
        #expect(disables.first?.region == "us")
        #expect(disables.first?.jsonObject?["token"] as? String == "token-us")
        #expect(!restarted.received(by: "eu").contains { $0.endpoint == "users/disableDevice" })
    }

    @Test("the teardown waits for the disable to be durable, and its bound is honoured")
    func durabilityBound() async throws {
        let storage = SyncHoldingStorage()
        let watcher = StateWatcher()
        let harness = try SDKHarness(observer: watcher.observer, storage: storage)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-us")
        await sdk.outcome.flush()
        storage.holdSyncs()
        let result = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: result.completion)
        await watcher.until { $0.switching.inFlight?.step == .disablePush }
        await storage.waitUntilSyncHeld()
        #expect(result.current == nil, "waiting for the disable to be durable")
        _ = harness.sdk.engineView()   // the batch that set the bound's timer has run its effects
        harness.clock.advance(by: .milliseconds(2_001))
        #expect(await result.value == .switchedWithWarnings)
        storage.releaseSyncs()
        await sdk.settle()
        let facts = try harness.closedFacts()
        let landed = try #require(Self.landed(facts).first)
        #expect(landed.3.contains { $0.contains("not durable within 2000 ms") })
    }

    // MARK: - Warnings and initialization

    @Test("a module that overruns its willSwitchProject bound makes the switch noisy; its late finish never overlaps the next instance's start")
    func moduleOverrun() async throws {
        let (harness, holder) = try Self.heldHarness()
        await harness.sdk.outcome.initialize(harness.us)
        let result = Eventually<SwitchResult>()
        harness.sdk.switchProject(to: harness.eu, completion: result.completion)
        await holder.waitUntilHolding()
        _ = harness.sdk.engineView()   // the batch that set the bound's timer has run its effects
        harness.clock.advance(by: .milliseconds(2_001))
        _ = harness.sdk.engineView()
        // The old instance's hook still runs: the new instance's events wait behind it.
        #expect(result.current == nil)
        #expect(!holder.heard.contains { $0.0.project == harness.eu.fingerprint })
        holder.release()
        #expect(await result.value == .switchedWithWarnings)
        await harness.sdk.settle()
        #expect(holder.overlapped.isEmpty, "events delivered while the overrun hook still ran: \(holder.overlapped)")
        let eu = holder.heard.filter { $0.0.project == harness.eu.fingerprint }.map(\.1)
        #expect(eu == [.initialize, .start])
        let facts = try harness.closedFacts()
        #expect(Self.landed(facts).first?.3.contains { $0.contains("module holder overran") } == true)
    }

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

    @Test("before initialization a switch is an initialization: clean when the start succeeds, warnings when it fails")
    func switchBeforeInitialization() async throws {
        let harness = try SDKHarness()
        #expect(await harness.sdk.outcome.switchProject(to: harness.eu) == .switchedCleanly)
        #expect(harness.sdk.liveProject == harness.eu.fingerprint)
        #expect(Self.routings(try harness.closedFacts()) == [.initialization])

        let failing = try SDKHarness(modules: [ControlledModule(name: "fragile", failsOn: .start)])
        #expect(await failing.sdk.outcome.switchProject(to: failing.eu) == .switchedWithWarnings)
        #expect(failing.sdk.liveProject == failing.eu.fingerprint)
    }

    @Test("blank keys cannot build a project", arguments: ["", " ", "\n\t ", "   \u{2003}"])
    func blankKeys(key: String) {
        #expect(Project(apiKey: key) == nil)
    }

    @Test("initialize at launch with another project than the journal's is a switch at launch: nothing leaks, the disable is kept")
    func switchAtLaunch() async throws {
        let harness = try SDKHarness()
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        await harness.sdk.outcome.registerToken("token-us")
        await harness.sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 1, templateID: 1, messageID: "x"))
        await harness.sdk.outcome.flush()

        let relaunched = try harness.restarted()
        let done = await relaunched.sdk.outcome.initialize(relaunched.eu)
        #expect(done == .applied(project: relaunched.eu.fingerprint))
        #expect(relaunched.sdk.email == nil)
        #expect(relaunched.sdk.attributionInfo == nil)
        await relaunched.sdk.settle()
        #expect(relaunched.received(by: "us").contains { $0.endpoint == "users/disableDevice" })
        let facts = try relaunched.closedFacts()
        #expect(facts.contains { if case .switchStarted(_, harness.us.fingerprint?, let to) = $0 { to.fingerprint == harness.eu.fingerprint } else { false } })
    }
}
