import Simulation
import Testing
@testable import SDK

/// Delivery and the gate's edges over the real `EngineShell` in the simulator's world
/// (``EngineStore``): retries on the virtual clock, failures, logout's purge, held calls that
/// wait for room in the queue. No thread, no socket; the store is exhaustive: facts, effects and
/// requests asserted exactly, the rest skipped by name. (The end-to-end layer over URLSession and
/// the Sandbox is `DeliveryTests`.)
@Suite("Delivery (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct DeliveryStoreTests {
    static func track(_ name: String) -> PublicCall { .track(event: name, dataFields: nil) }

    @Test("5xx, 429 and refused connections are retried with backoff on the clock, then delivered",
          arguments: [503, 500, 429, 0])
    func retried(status: Int) {
        let store = SwitchContractStoreTests.onA()
        if status == 0 {
            store.refuse("events/track", times: 2)
        } else {
            store.answer("events/track", status: status, body: #"{"code":"Busy"}"#, times: 2)
        }
        let call = store.call(Self.track("retried"))
        store.advance(byMilliseconds: 100)
        #expect(store.outcomes[call] == nil, "waiting for the retry timer")
        store.settle()
        #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.A), status: 200))
        let delivery = store.takeFacts(where: \.isDelivery)
        #expect(delivery.count == 10, "queued, three attempts sent and answered, two retries scheduled, completed")
        #expect(delivery.filter { $0.hasPrefix("taskDispatched") } == [
            "taskDispatched t1 attempt 1", "taskDispatched t1 attempt 2", "taskDispatched t1 attempt 3",
        ])
        #expect(delivery.last == "taskCompleted t1 delivered (200)")
        store.expectEffects([
            "send t1 attempt 1",
            "armTimer retry t1 attempt 2 due t+2520ms",
            "send t1 attempt 2",
            "armTimer retry t1 attempt 3 due t+3540ms",
            "send t1 attempt 3",
            "complete 00000003 delivered to A (200)",
        ])
        store.expectRequests(Array(repeating: #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"retried"}"#, count: 3))
        store.skipReceivedFacts()       // the call's receipt, the gate, the timers firing: backoffTimes' story
    }

    @Test("the backoff is on the clock: each retry is due after the doubled delay, and the queue waits for it")
    func backoffTimes() {
        let store = SwitchContractStoreTests.onA()
        store.answer("events/track", status: 503, times: 2)
        store.call(Self.track("retried"))
        store.settle()
        store.expectFacts([
            "callReceived track \"retried\" (call 00000003)",
            "gateDecided 00000003 executed on A",
            "taskQueued t1 POST events/track for A (us) for user ada@example.com (call 00000003)",
            "taskDispatched t1 attempt 1",
            "transportCompleted t1 attempt 1: HTTP 503",
            "retryScheduled t1 attempt 2 due t+2520ms: HTTP 503 (1 such answer(s))",
            "timerFired retry t1 attempt 2",
            "taskDispatched t1 attempt 2",
            "transportCompleted t1 attempt 2: HTTP 503",
            "retryScheduled t1 attempt 3 due t+3540ms: HTTP 503 (2 such answer(s))",
            "timerFired retry t1 attempt 3",
            "taskDispatched t1 attempt 3",
            "transportCompleted t1 attempt 3: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "callResolved 00000003 delivered to A (200)",
        ])
        store.expectEffects(where: { if case .armTimer = $0 { true } else { false } }, [
            "armTimer retry t1 attempt 2 due t+2520ms",
            "armTimer retry t1 attempt 3 due t+3540ms",
        ])
        store.skipEffects()            // the sends and the completion: retried's story
        store.skipRequests()
    }

    @Test("retries stop at the policy's attempts and the call fails naming the last error")
    func retriesExhausted() {
        let store = SwitchContractStoreTests.onA()
        store.answer("events/track", status: 503, times: 10)
        let call = store.call(Self.track("doomed"))
        store.settle()
        store.expectFacts(where: { if case .taskDispatched = $0 { true } else if case .taskCompleted = $0 { true } else { $0.isResolution } }, [
            "taskDispatched t1 attempt 1",
            "taskDispatched t1 attempt 2",
            "taskDispatched t1 attempt 3",
            "taskDispatched t1 attempt 4",
            "taskDispatched t1 attempt 5",
            "taskCompleted t1 failed: retries exhausted: 5 attempts; last: HTTP 503",
            "callResolved 00000003 failed: retries exhausted: 5 attempts; last: HTTP 503",
        ])
        store.skipReceivedFacts()      // each attempt's answer and retry timer: backoffTimes' story
        store.expectEffects(where: \.isCompletion, [
            "complete 00000003 failed: retries exhausted: 5 attempts; last: HTTP 503",
        ])
        store.skipEffects()
        store.expectRequests(Array(repeating: #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"doomed"}"#, count: 5))
        guard case .failed(.retriesExhausted(let reason)) = store.outcomes[call] else {
            Issue.record("expected retriesExhausted, got \(String(describing: store.outcomes[call]))")
            return
        }
        #expect(reason.contains("5 attempts") && reason.contains("503"))
    }

    @Test("other 4xx fail at once with the status and the API's code; the next call is delivered", arguments: [400, 404, 409])
    func clientErrorsFail(status: Int) {
        let store = SwitchContractStoreTests.onA()
        store.answer("events/track", status: status, body: #"{"code":"GenericError","msg":"injected status \#(status)"}"#)
        let bad = store.call(Self.track("bad"))
        store.settle()
        let fine = store.call(Self.track("fine"))
        store.settle()
        #expect(store.outcomes[bad] == .failed(.httpStatus(status, code: "GenericError", message: "injected status \(status)")))
        #expect(store.outcomes[fine] == .delivered(project: store.fingerprint(.A), status: 200))
        store.expectFacts([
            "callReceived track \"bad\" (call 00000003)",
            "gateDecided 00000003 executed on A",
            "taskQueued t1 POST events/track for A (us) for user ada@example.com (call 00000003)",
            "taskDispatched t1 attempt 1",
            "transportCompleted t1 attempt 1: HTTP \(status) GenericError: injected status \(status)",
            "taskCompleted t1 failed: HTTP \(status) GenericError: injected status \(status)",
            "callResolved 00000003 failed: HTTP \(status) GenericError: injected status \(status)",
            "callReceived track \"fine\" (call 00000004)",
            "gateDecided 00000004 executed on A",
            "taskQueued t2 POST events/track for A (us) for user ada@example.com (call 00000004)",
            "taskDispatched t2 attempt 1",
            "transportCompleted t2 attempt 1: HTTP 200 Success",
            "taskCompleted t2 delivered (200)",
            "callResolved 00000004 delivered to A (200)",
        ])
        store.expectEffects([
            "send t1 attempt 1",
            "complete 00000003 failed: HTTP \(status) GenericError: injected status \(status)",
            "send t2 attempt 1",
            "complete 00000004 delivered to A (200)",
        ])
        store.expectRequests([      // a 4xx is not retried
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"bad"}"#,
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"fine"}"#,
        ])
    }

    @Test("logout purges queued requests but keeps the disableDevice, and resolves the purged calls as discarded")
    func logoutPurge() {
        let store = SwitchContractStoreTests.onA()
        store.call(.registerToken("tok"))
        store.settle()
        store.skipReceivedFacts()
        store.skipEffects()
        store.skipRequests()
        let inFlight = store.call(Self.track("in-flight"))
        let queued = store.call(Self.track("queued"))
        let logout = store.call(.logoutUser)
        store.expectFacts(where: { $0.isResolution || $0.isDelivery }, [
            "taskQueued t2 POST events/track for A (us) for user ada@example.com (call 00000004)",
            "taskDispatched t2 attempt 1",
            "taskQueued t3 POST events/track for A (us) for user ada@example.com (call 00000005)",
            "taskQueued t4 POST users/disableDevice for A (us) for user ada@example.com",
            "taskCompleted t3 discarded: purged by logout",
            "callResolved 00000005 discarded: purged by logout",
            "callResolved 00000006 applied on A",
        ])
        store.settle()
        #expect(store.outcomes[queued] == .discarded(.purgedByLogout))
        #expect(store.outcomes[inFlight] == .delivered(project: store.fingerprint(.A), status: 200))
        #expect(store.outcomes[logout] != nil)
        #expect(store.state.email == nil)
        store.expectRequests([
            "A events/track {\"createdAt\":1764000002,\"email\":\"ada@example.com\",\"eventName\":\"in-flight\"}",
            "A users/disableDevice {\"email\":\"ada@example.com\",\"token\":\"tok\"}",
        ])
        store.expectEffects(where: { $0.isCompletion || $0.isSend }, [
            "send t2 attempt 1",
            "complete 00000005 discarded: purged by logout",
            "complete 00000006 applied on A",
            "complete 00000004 delivered to A (200)",
            "send t4 attempt 1",
        ])
        store.skipReceivedFacts()      // the modules' willLogout hooks and the answers
        store.skipEffects()
    }

    // MARK: - The gate and the delivery queue

    @Test("a switch holding more calls than the delivery queue takes: every held call reaches the new project, in order, none discarded")
    func heldCallsWaitForRoom() {
        let store = SwitchContractStoreTests.onA(rules: EngineRules(gateCapacity: 200, queueCapacity: 10))
        let switchCall = store.switchProject(to: .B)
        store.call(.setEmail("grace@example.com"))
        let calls = (0..<60).map { store.call(Self.track("e\($0)")) }
        store.settle()
        #expect(store.switchResults[switchCall] != nil)
        for call in calls { #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.B), status: 200)) }
        let facts = store.takeFactValues()
        #expect(!facts.contains { if case .callResolved(_, .discarded) = $0 { true } else { false } })
        #expect(facts.filter { if case .gateDecided(_, .replayed) = $0 { true } else { false } }.count == 61)
        let events = store.takeRequests().filter { $0.project == "B" }.flatMap { request in
            request.body.split(separator: "\"eventName\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        #expect(events == (0..<60).map { "e\($0)" })
        store.skipEffects()            // the switch's hooks, each task's send and completion: checked through the outcomes
    }

    @Test("a call made while a landed switch still replays its held calls queues behind them, and the next switch waits for the replay")
    func laterCallsQueueBehindTheReplay() {
        let store = SwitchContractStoreTests.onA(rules: EngineRules(gateCapacity: 200, queueCapacity: 5))
        store.switchProject(to: .B)
        store.call(.setEmail("grace@example.com"))
        for index in 0..<20 { store.call(Self.track("held\(index)")) }
        store.advance(byMilliseconds: 5)            // the teardown's hooks return: the switch lands
        #expect(store.state.switching.releasingHeldCalls != nil && store.state.switching.gate.count > 0, "the queue is full: the rest stay held")
        store.skipReceivedFacts()
        let afterLanding = store.call(Self.track("after-landing"))
        store.switchProject(to: .C)
        store.expectFacts(where: { $0.isGateDecision || $0.isSwitchFact }, [
            "gateDecided 00000019 queued behind s1 at #15",
            "switchRouted s2 to C (us): enqueued behind s1 (call 0000001a)",
        ])
        #expect(store.state.switching.queue.count == 1 && store.state.switching.inFlight == nil, "the next switch waits for the replay")
        store.settle()
        let facts = store.takeFactValues()
        let lastReplay = facts.lastIndex { if case .gateDecided(_, .replayed) = $0 { true } else { false } }
        let nextStart = facts.lastIndex { if case .switchStarted = $0 { true } else { false } }
        #expect(lastReplay != nil && nextStart != nil && lastReplay! < nextStart!)
        #expect(!facts.contains { if case .callResolved(_, .discarded(.queueFull)) = $0 { true } else { false } })
        let events = store.takeRequests().filter { $0.project == "B" }.flatMap { request in
            request.body.split(separator: "\"eventName\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        // Every held call was replayed and delivered, in order; the call made after the landing
        // was still queued on B when the next switch purged B's queue: discarded, journaled.
        #expect(events == (0..<20).map { "held\($0)" })
        #expect(store.outcomes[afterLanding] == .discarded(.purgedBySwitch(SwitchID(2))))
        store.skipEffects()            // the switches' hooks, each task's send and completion: checked through the outcomes
    }
}
