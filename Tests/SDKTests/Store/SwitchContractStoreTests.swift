import Simulation
import Testing
@testable import SDK

/// The switch contract, rule by rule, over the real `EngineShell` in the simulator's world
/// (``EngineStore``): no thread, no socket, no sleep. The store is exhaustive: each test asserts
/// the facts, completions and requests its rule is about, exactly, and skips the rest by name
/// (teardown steps, module hooks, timers). (The end-to-end layer over URLSession and the Sandbox
/// is `SwitchContractTests`.)
@Suite("Switch contract (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct SwitchContractStoreTests {
    /// A store on project A with ada signed in, everything settled; the set-up is skipped.
    static func onA(rules: EngineRules = EngineRules(), timing: EngineStore.Timing = EngineStore.Timing()) -> EngineStore {
        let store = EngineStore(rules: rules, timing: timing)
        store.initialize(.A)
        store.call(.setEmail("ada@example.com"))
        store.settle()
        store.skipReceivedFacts()
        store.skipEffects()
        store.skipRequests()
        return store
    }

    /// The noise of a switch story once its rule is asserted: the facts left (teardown steps,
    /// module hooks, timers) and the effects that run them. Completions are never noise here:
    /// each test asserts the callbacks the app hears, in order.
    static func skipTheRest(_ store: EngineStore) {
        store.skipReceivedFacts()
        store.skipEffects(where: { !$0.isCompletion })
    }

    static func track(_ name: String) -> PublicCall { .track(event: name, dataFields: nil) }

    // MARK: - The gate

    @Test("calls made during the window are queued, then replayed on the new project in call order before the gate drops")
    func gatedCallsReplayInOrder() {
        let store = Self.onA()
        let switchCall = store.switchProject(to: .B)
        store.call(.setEmail("grace@example.com"))
        for index in 0..<3 { store.call(Self.track("e\(index)")) }
        store.call(.updateUser(dataFields: ["plan": .string("pro")], mergeNestedObjects: false))
        store.expectFacts(where: { $0.isGateDecision || $0.isSwitchFact && !$0.isTeardownStep }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "gateDecided 00000004 queued behind s1 at #0",
            "gateDecided 00000005 queued behind s1 at #1",
            "gateDecided 00000006 queued behind s1 at #2",
            "gateDecided 00000007 queued behind s1 at #3",
            "gateDecided 00000008 queued behind s1 at #4",
        ])
        #expect(store.switchResults[switchCall] == nil, "the switch is in flight until the world runs")
        store.settle()
        store.expectFacts(where: { $0.isGateDecision || $0.isSwitchFact && !($0.isTeardownStep) }, [
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable)",
            "gateDecided 00000004 replayed by s1 on B",
            "gateDecided 00000005 replayed by s1 on B",
            "gateDecided 00000006 replayed by s1 on B",
            "gateDecided 00000007 replayed by s1 on B",
            "gateDecided 00000008 replayed by s1 on B",
        ])
        #expect(store.switchResults[switchCall] == .switchedWithWarnings, "no push token: noisy")
        store.expectRequests([
            "B events/track {\"createdAt\":1764000002,\"email\":\"grace@example.com\",\"eventName\":\"e0\"}",
            "B events/trackBulk {\"events\":[{\"createdAt\":1764000002,\"email\":\"grace@example.com\",\"eventName\":\"e1\"},{\"createdAt\":1764000002,\"email\":\"grace@example.com\",\"eventName\":\"e2\"}]}",
            "B users/update {\"dataFields\":{\"plan\":\"pro\"},\"email\":\"grace@example.com\",\"mergeNestedObjects\":false}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000004 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000005 delivered to B (200)",
            "complete 00000006 delivered to B (200)",
            "complete 00000007 delivered to B (200)",
            "complete 00000008 delivered to B (200)",
        ])
        Self.skipTheRest(store)
    }

    @Test("a call made as the switch lands never overtakes older held calls")
    func landingCallDoesNotOvertake() {
        let store = Self.onA()
        store.switchProject(to: .B)
        store.call(.setEmail("grace@example.com"))
        store.call(Self.track("held"))
        // Run the teardown until it landed (its hooks return after 5 ms), then call at once.
        store.advance(byMilliseconds: 5)
        store.call(Self.track("made-as-it-lands"))
        store.expectFacts(where: \.isGateDecision, [
            "gateDecided 00000004 queued behind s1 at #0",
            "gateDecided 00000005 queued behind s1 at #1",
            "gateDecided 00000004 replayed by s1 on B",
            "gateDecided 00000005 replayed by s1 on B",
            "gateDecided 00000006 executed on B",
        ])
        store.settle()
        store.expectRequests([
            "B events/track {\"createdAt\":1764000002,\"email\":\"grace@example.com\",\"eventName\":\"held\"}",
            "B events/track {\"createdAt\":1764000002,\"email\":\"grace@example.com\",\"eventName\":\"made-as-it-lands\"}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000004 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000005 delivered to B (200)",
            "complete 00000006 delivered to B (200)",
        ])
        Self.skipTheRest(store)
    }

    @Test("a push opened mid-switch is tracked inline against the outgoing project, and its completion is not held")
    func pushMidSwitchGoesToOutgoing() {
        var timing = EngineStore.Timing()
        timing.hookMilliseconds = 1_000     // the outgoing modules' willSwitchProject holds the switch a second
        let store = Self.onA(timing: timing)
        let switchCall = store.switchProject(to: .B)
        let open = store.call(.trackPushOpen(PushOpen(campaignID: 11, templateID: 12, messageID: "a-msg", appAlreadyRunning: true)))
        store.expectFacts(where: \.isGateDecision, [
            "gateDecided 00000004 inline on A",
        ])
        store.advance(byMilliseconds: 100)
        #expect(store.switchResults[switchCall] == nil, "the switch is still in flight")
        #expect(store.outcomes[open] == .delivered(project: store.fingerprint(.A), status: 200), "resolved while the switch is held")
        store.settle()
        store.expectRequests([
            "A events/trackPushOpen {\"appAlreadyRunning\":true,\"campaignId\":11,\"messageId\":\"a-msg\",\"templateId\":12}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000004 delivered to A (200)",
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
        ])
        Self.skipTheRest(store)
    }

    // MARK: - Routing

    @Test("a switch to the live project with nothing running is a no-op that reports clean, and journals nothing else")
    func noopSwitch() {
        let store = Self.onA()
        let call = store.switchProject(to: .A)
        store.settle()
        store.expectFacts([
            "callReceived switchProject A (us) (call 00000003)",
            "switchRouted s1 to A (us): noop (already there) (call 00000003)",
            "callResolved 00000003 applied on A",
        ])
        store.expectEffects([
            "complete 00000003 applied on A",
        ])
        #expect(store.switchResults[call] == .switchedCleanly)
    }

    @Test("a double tap runs one teardown and fires both callbacks")
    func doubleTap() {
        let store = Self.onA()
        let first = store.switchProject(to: .B)
        let second = store.switchProject(to: .B)
        store.settle()
        store.expectFacts(where: { $0.isSwitchFact && !$0.isTeardownStep }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "switchRouted s2 to B (eu): absorbed into s1 (call 00000004)",
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable)",
        ])
        #expect(store.switchResults[first] != nil && store.switchResults[second] != nil)
        #expect(store.completionOrder.filter { $0 == first || $0 == second }.count == 2, "each callback fires exactly once")
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000004 applied on B (landing s1: switchedWithWarnings)",
        ])
        Self.skipTheRest(store)
    }

    @Test("B, C, B (the first B starting at once) runs three switches and ends on B")
    func chainEndsOnLastRequested() {
        let store = Self.onA()
        store.switchProject(to: .B)
        store.switchProject(to: .C)
        let last = store.switchProject(to: .B)
        store.settle()
        store.expectFacts(where: { $0.isSwitchFact && !$0.isTeardownStep }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "switchRouted s2 to C (us): enqueued behind s1 (call 00000004)",
            "switchRouted s3 to B (eu): enqueued behind s2 (call 00000005)",
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable)",
            "switchStarted s2 from B to C (us)",
            "switchLanded s2 on C: switchedWithWarnings (no push token to disable)",
            "switchStarted s3 from C to B (eu)",
            "switchLanded s3 on B: switchedWithWarnings (no push token to disable)",
        ])
        #expect(store.state.live?.fingerprint == store.fingerprint(.B))
        #expect(store.switchResults[last] != nil)
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000004 applied on C (landing s2: switchedWithWarnings)",
            "complete 00000005 applied on B (landing s3: switchedWithWarnings)",
        ])
        Self.skipTheRest(store)
    }

    @Test("with A to B in flight, a request for A is queued (not 'already there') and the SDK ends on A")
    func requestForOutgoingIsQueued() {
        let store = Self.onA()
        store.switchProject(to: .B)
        store.switchProject(to: .A)
        store.settle()
        store.expectFacts(where: { $0.isSwitchFact && !$0.isTeardownStep }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "switchRouted s2 to A (us): enqueued behind s1 (call 00000004)",
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable)",
            "switchStarted s2 from B to A (us)",
            "switchLanded s2 on A: switchedWithWarnings (no push token to disable)",
        ])
        #expect(store.state.live?.fingerprint == store.fingerprint(.A))
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000004 applied on A (landing s2: switchedWithWarnings)",
        ])
        Self.skipTheRest(store)
    }

    @Test("alternating C and A four hundred times during one switch keeps two queue entries, costs two more teardowns, ends on the last asked; every callback fires once")
    func alternatingTaps() {
        let store = Self.onA()
        var calls = [store.switchProject(to: .B)]
        for index in 0..<400 { calls.append(store.switchProject(to: index.isMultiple(of: 2) ? .C : .A)) }
        #expect(store.state.switching.queue.count == 2)
        store.settle()
        let facts = store.takeFactValues()
        #expect(facts.filter { if case .switchStarted = $0 { true } else { false } }.map(store.describe) == [
            "switchStarted s1 from A to B (eu)", "switchStarted s2 from B to C (us)", "switchStarted s3 from C to A (us)",
        ])
        #expect(facts.filter { if case .switchRouted(_, _, _, .moved) = $0 { true } else { false } }.count == 398)
        #expect(store.state.live?.fingerprint == store.fingerprint(.A))
        let fired = store.completionOrder.filter(Set(calls).contains)
        #expect(Set(fired).count == calls.count && fired.count == calls.count, "every switch callback fires exactly once")
        #expect(store.takeEffects(where: \.isCompletion).count == calls.count, "one completion handed to the callback queue per call")
        Self.skipTheRest(store)
    }

    @Test("a setEmail made from a switch's callback lands on the project that callback reported, even with another switch queued")
    func setEmailFromCallback() {
        let store = Self.onA()
        store.switchProject(to: .B, then: [.setEmail("from-callback@example.com"), Self.track("from-callback")])
        store.switchProject(to: .C)
        store.settle()
        store.expectFacts(where: { $0.isGateDecision || $0.isSwitchFact && !$0.isTeardownStep }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "switchRouted s2 to C (us): enqueued behind s1 (call 00000004)",
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable)",
            "gateDecided 00000005 executed on B",
            "gateDecided 00000006 executed on B",
            "switchStarted s2 from B to C (us)",
            "switchLanded s2 on C: switchedWithWarnings (no push token to disable)",
        ])
        store.expectRequests([
            "B events/track {\"createdAt\":1764000002,\"email\":\"from-callback@example.com\",\"eventName\":\"from-callback\"}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
            "complete 00000005 applied on B",
            "complete 00000004 applied on C (landing s2: switchedWithWarnings)",
            "complete 00000006 delivered to B (200)",
        ])
        Self.skipTheRest(store)
    }

    // MARK: - The outgoing disable

    @Test("a queued disable survives the switch and a restart, and is delivered to the outgoing project's region")
    func disableSurvivesSwitchAndRestart() {
        let store = Self.onA()
        store.call(.registerToken("token-a"))
        store.settle()
        store.skipRequests()
        store.answer("users/disableDevice", status: 503)
        let switchCall = store.switchProject(to: .B)
        store.advance(byMilliseconds: 100)
        #expect(store.switchResults[switchCall] == .switchedCleanly, "the disable is durably queued: clean")
        store.expectRequests([
            "A users/disableDevice {\"email\":\"ada@example.com\",\"token\":\"token-a\"}",
        ])
        store.restart()
        store.initialize(.B)
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts(where: \.isDelivery, [
            "taskDispatched t2 attempt 2",
            "transportCompleted t2 attempt 2: HTTP 200 Success",
            "taskCompleted t2 delivered (200)",
        ])
        store.expectRequests([
            "A users/disableDevice {\"email\":\"ada@example.com\",\"token\":\"token-a\"}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 delivered to A (200)",
            "complete 00000004 applied on B (landing s1: switchedCleanly)",
            "complete 00000005 applied on B",
        ])
        Self.skipTheRest(store)
    }

    @Test("the teardown waits for the disable to be durable, and its bound is honoured")
    func durabilityBound() {
        var timing = EngineStore.Timing()
        timing.syncMilliseconds = 5_000
        let store = Self.onA(timing: timing)
        store.call(.registerToken("token-a"))
        store.settle()
        store.skipReceivedFacts()
        let start = store.elapsedMilliseconds
        let switchCall = store.switchProject(to: .B)
        store.advance(byMilliseconds: 1_999)
        #expect(store.switchResults[switchCall] == nil, "waiting for the disable to be durable")
        store.advance(byMilliseconds: 1)
        store.expectFacts(where: { if case .teardownStepFinished(_, .disablePush, _, _) = $0 { true } else { false } }, [
            "teardownStepFinished s1 disable push: noisy: the disable was not durable within 2000 ms after 2.00s",
        ])
        store.settle()
        #expect(store.switchResults[switchCall] == .switchedWithWarnings)
        #expect(store.elapsedMilliseconds - start >= 2_000)
        store.expectRequests([
            "A users/registerDeviceToken {\"device\":{\"applicationName\":\"engagement-sdk\",\"platform\":\"APNS\",\"token\":\"token-a\"},\"email\":\"ada@example.com\"}",
            "A users/disableDevice {\"email\":\"ada@example.com\",\"token\":\"token-a\"}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 delivered to A (200)",
            "complete 00000004 applied on B (landing s1: switchedWithWarnings)",
        ])
        Self.skipTheRest(store)
    }

    // MARK: - Warnings and initialization

    @Test("a module that overruns its willSwitchProject bound makes the switch noisy; its late return is awaited before the next instance starts")
    func moduleOverrun() {
        var timing = EngineStore.Timing()
        timing.hookMilliseconds = 3_000
        let store = Self.onA(timing: timing)
        let switchCall = store.switchProject(to: .B)
        store.advance(byMilliseconds: 2_000)
        store.expectFacts(where: { if case .moduleHookFinished = $0 { true } else { $0.isSwitchFact } }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "teardownStepBegan s1 disable push",
            "teardownStepFinished s1 disable push: noisy: no push token to disable after 0us",
            "teardownStepBegan s1 reset in-app",
            "moduleHookFinished #4 ok",
            "teardownStepFinished s1 reset in-app: clean after 0us",
            "teardownStepBegan s1 reset embedded",
            "moduleHookFinished #5 ok",
            "teardownStepFinished s1 reset embedded: clean after 0us",
            "teardownStepBegan s1 purge queue",
            "teardownStepFinished s1 purge queue: clean after 0us",
            "teardownStepBegan s1 clear identity",
            "teardownStepFinished s1 clear identity: clean after 0us",
            "teardownStepBegan s1 clear project storage",
            "teardownStepFinished s1 clear project storage: clean after 0us",
            "teardownStepBegan s1 release instance",
            "moduleHookFinished #6 with a problem: module in-app overran its 2000 ms bound on willSwitchProject B",
            "moduleHookFinished #7 with a problem: module embedded overran its 2000 ms bound on willSwitchProject B",
            "moduleHookFinished #8 with a problem: module push overran its 2000 ms bound on willSwitchProject B",
            "teardownStepFinished s1 release instance: noisy: module in-app overran its 2000 ms bound on willSwitchProject B; module embedded overran its 2000 ms bound on willSwitchProject B; module push overran its 2000 ms bound on willSwitchProject B after 2.00s",
            "teardownStepBegan s1 start instance",
        ])
        #expect(store.switchResults[switchCall] == nil, "the old instance's hooks still run: the new instance waits")
        // The new instance's events are journaled, and handed to each module only once its
        // overrun hook really returned (the simulator reports a module given work while busy).
        store.settle()
        store.expectFacts(where: { if case .moduleHookFinished = $0 { true } else { $0.isSwitchFact } }, [
            "moduleHookFinished #9 ok",
            "moduleHookFinished #10 ok",
            "moduleHookFinished #11 ok",
            "teardownStepFinished s1 start instance: clean after 1.00s",
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable; module in-app overran its 2000 ms bound on willSwitchProject B; module embedded overran its 2000 ms bound on willSwitchProject B; module push overran its 2000 ms bound on willSwitchProject B)",
        ])
        #expect(store.switchResults[switchCall] == .switchedWithWarnings)
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 applied on B (landing s1: switchedWithWarnings)",
        ])
        Self.skipTheRest(store)
    }

    @Test("before initialization a switch is an initialization, clean when the start succeeds")
    func switchBeforeInitialization() {
        let store = EngineStore()
        store.skipReceivedFacts()
        let call = store.switchProject(to: .B)
        store.settle()
        store.expectFacts(where: { $0.isSwitchFact || $0.isResolution }, [
            "switchRouted s1 to B (eu): initialization (call 00000001)",
            "switchStarted s1 from - to B (eu)",
            "teardownStepBegan s1 start instance",
            "teardownStepFinished s1 start instance: clean after 0us",
            "switchLanded s1 on B: switchedCleanly",
            "callResolved 00000001 applied on B",
        ])
        #expect(store.switchResults[call] == .switchedCleanly)
        #expect(store.state.live?.fingerprint == store.fingerprint(.B))
        store.expectEffects(where: \.isCompletion, [
            "complete 00000001 applied on B (landing s1: switchedCleanly)",
        ])
        Self.skipTheRest(store)
    }

    @Test("initialize at launch with another project than the journal's is a switch at launch: nothing leaks, the disable is kept")
    func switchAtLaunch() {
        let store = Self.onA()
        store.call(.registerToken("token-a"))
        store.call(.setAttribution(AttributionInfo(campaignID: 1, templateID: 1, messageID: "x")))
        store.settle()
        store.skipRequests()
        store.restart()
        store.skipReceivedFacts()
        let call = store.initialize(.B)
        store.settle()
        store.expectFacts(where: { $0.isSwitchFact && !$0.isTeardownStep || $0.isResolution }, [
            "switchRouted s1 to B (eu): started (call 00000005)",
            "switchStarted s1 from A to B (eu)",
            "switchLanded s1 on B: switchedCleanly",
            "callResolved 00000005 applied on B",
        ])
        #expect(store.outcomes[call] == .applied(project: store.fingerprint(.B)))
        #expect(store.state.email == nil && store.state.attribution == nil)
        store.expectRequests([
            "A users/disableDevice {\"email\":\"ada@example.com\",\"token\":\"token-a\"}",
        ])
        store.expectEffects(where: \.isCompletion, [
            "complete 00000004 applied on A",
            "complete 00000003 delivered to A (200)",
            "complete 00000005 applied on B (landing s1: switchedCleanly)",
        ])
        Self.skipTheRest(store)
    }
}

extension Fact {
    /// A teardown step's beginning or end.
    var isTeardownStep: Bool {
        switch self {
        case .teardownStepBegan, .teardownStepFinished: true
        default: false
        }
    }
}
