import Simulation
import Testing
@testable import SDK

/// What the engine shell guarantees around the pure core (docs/ARCHITECTURE.md, "Edges"), over
/// the real `EngineShell` in the simulator's world (``EngineStore``): JWTs per instance, the auth
/// provider's bound, modules' failures per instance, shutdown and relaunch mid-switch, a journal
/// that comes back. No thread, no socket. The store is exhaustive: facts, requests and effects
/// asserted where they are the point, the rest skipped by name. Each test is one the shell's
/// mutations (scripts/shell-mutations.py) must fail.
@Suite("Edges (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct EdgesStoreTests {
    static func track(_ name: String) -> PublicCall { .track(event: name, dataFields: nil) }

    /// A store on `project` with ada signed in, settled; the set-up is skipped.
    static func on(_ project: EngineStore.ProjectName, failingModules: Bool = false,
                   timing: EngineStore.Timing = EngineStore.Timing()) -> EngineStore {
        let store = EngineStore(failingModules: failingModules, timing: timing)
        store.initialize(project)
        store.call(.setEmail("ada@example.com"))
        store.settle()
        store.skipReceivedFacts()
        store.skipEffects()
        store.skipRequests()
        return store
    }

    // MARK: - JWTs

    @Test("a JWT belongs to one instance: after C -> A -> C, ada's requests on the new C instance carry a new token")
    func tokensForgottenAtInstanceStart() {
        let store = Self.on(.C)
        store.call(Self.track("first"))
        store.settle()
        store.switchProject(to: .A)
        store.settle()
        store.switchProject(to: .C, then: [.setEmail("ada@example.com"), Self.track("second")])
        store.settle()
        store.expectFacts(where: { if case .authRefreshRequested = $0 { true } else { $0.isDelivery } }, [
            "taskQueued t1 POST events/track for C (us) for user ada@example.com (call 00000003)",
            "taskDispatched t1 attempt 1",
            "transportCompleted t1 attempt 1: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "taskQueued t2 POST events/track for C (us) for user ada@example.com (call 00000007)",
            "taskDispatched t2 attempt 1",
            "transportCompleted t2 attempt 1: HTTP 200 Success",
            "taskCompleted t2 delivered (200)",
        ])
        let requests = store.takeRequests()
        #expect(requests.map(\.description) == [
            #"C events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"first"}"#,
            #"C events/track {"createdAt":1764000014,"email":"ada@example.com","eventName":"second"}"#,
        ])
        #expect(requests.count == 2 && requests[0].token != nil && requests[1].token != nil && requests[0].token != requests[1].token,
                "the new instance asked for its own token")
        store.skipReceivedFacts()      // two switches' teardowns and the tokens' requests
        store.skipEffects()
    }

    @Test("a token the provider issues after its instance was replaced is used for its request, never cached for a later instance")
    func lateTokenNotCached() {
        var timing = EngineStore.Timing()
        timing.authMilliseconds = 200         // the provider answers after C -> A -> C landed
        let store = Self.on(.C, timing: timing)
        store.call(Self.track("asked-on-c"))
        store.switchProject(to: .A)
        store.switchProject(to: .C, then: [.setEmail("ada@example.com")])
        store.settle()
        store.call(Self.track("after-the-late-token"))
        store.settle()
        store.expectFacts(where: \.isDelivery, [
            "taskQueued t1 POST events/track for C (us) for user ada@example.com (call 00000003)",
            "taskDispatched t1 attempt 1",
            "transportCompleted t1 attempt 1: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "taskQueued t2 POST events/track for C (us) for user ada@example.com (call 00000007)",
            "taskDispatched t2 attempt 1",
            "transportCompleted t2 attempt 1: HTTP 200 Success",
            "taskCompleted t2 delivered (200)",
        ])
        store.expectRequests([
            #"C events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"asked-on-c"}"#,
            #"C events/track {"createdAt":1764000012,"email":"ada@example.com","eventName":"after-the-late-token"}"#,
        ])
        store.skipReceivedFacts()      // two switches' teardowns and the tokens' requests
        store.skipEffects()
    }

    @Test("an auth provider slower than its bound: the attempt is not made, journaled at the bound, and the request waits aside and tries again")
    func providerBounded() {
        var timing = EngineStore.Timing()
        timing.authMilliseconds = 15_000      // past the 10 s bound
        let store = Self.on(.C, timing: timing)
        let call = store.call(Self.track("slow-jwt"))
        store.advance(byMilliseconds: 10_000)
        store.expectFacts([
            "callReceived track \"slow-jwt\" (call 00000003)",
            "gateDecided 00000003 executed on C",
            "taskQueued t1 POST events/track for C (us) for user ada@example.com (call 00000003)",
            "taskDispatched t1 attempt 1",
            "transportCompleted t1 attempt 1: not sent: no JWT for its user: the auth provider did not answer within 10000 ms",
            "retryScheduled t1 attempt 2 due t+12500ms: not sent (no JWT for its user: the auth provider did not answer within 10000 ms): waits aside, the rest of its project's queue goes on",
        ])
        #expect(store.outcomes[call] == nil, "no JWT yet: the task waits aside and tries again")
        store.expectRequests([])                 // nothing went out without its JWT
        store.expectEffects([
            "send t1 attempt 1",
            "armTimer retry t1 attempt 2 due t+12500ms",
        ])
    }

    // MARK: - Modules

    @Test("a module's failure counts against the instance it failed for: the new instance's start reports its own")
    func moduleFailureStaysInItsInstance() {
        let store = Self.on(.A, failingModules: true)
        let call = store.switchProject(to: .B)
        store.settle()
        store.expectFacts(where: { if case .switchLanded = $0 { true } else { false } }, [
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable; module in-app failed reset: simulated failure handling reset (generation 1); module embedded failed reset: simulated failure handling reset (generation 1); module in-app failed willSwitchProject B: simulated failure of in-app (generation 1); module embedded failed willSwitchProject B: simulated failure of embedded (generation 1); module push failed willSwitchProject B: simulated failure of push (generation 1); module in-app failed start: simulated failure handling start (generation 2); module embedded failed start: simulated failure handling start (generation 2); module push failed start: simulated failure handling start (generation 2))",
        ])
        #expect(store.switchResults[call] == .switchedWithWarnings)
        store.skipReceivedFacts()      // the teardown's steps and hooks: the landing's warnings are the story
        store.skipEffects()
    }

    @Test("the outgoing instance's module failures are not the new instance's: a clean start reports none")
    func oldModuleFailureNotTheNewStart() {
        let store = Self.on(.A)
        store.failingModuleGenerations = [1]
        let call = store.switchProject(to: .B)
        store.settle()
        store.expectFacts(where: { if case .switchLanded = $0 { true } else { false } }, [
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable; module in-app failed reset: simulated failure handling reset (generation 1); module embedded failed reset: simulated failure handling reset (generation 1); module in-app failed willSwitchProject B: simulated failure of in-app (generation 1); module embedded failed willSwitchProject B: simulated failure of embedded (generation 1); module push failed willSwitchProject B: simulated failure of push (generation 1))",
        ])
        #expect(store.switchResults[call] == .switchedWithWarnings)
        store.skipReceivedFacts()      // the teardown's steps and hooks: the landing's warnings are the story
        store.skipEffects()
    }

    // MARK: - Shutdown and relaunch

    @Test("shutdown mid-switch: the switch in flight reports interrupted, the queued one notPerformed; the relaunch finishes the switch it had begun")
    func shutdownMidSwitch() {
        let store = Self.on(.A)
        let inFlight = store.switchProject(to: .B)
        let queued = store.switchProject(to: .C)
        let held = store.call(Self.track("held"))
        store.restart()
        #expect(store.switchResults[inFlight] == .interruptedByShutdown)
        #expect(store.switchResults[queued] == .notPerformed)
        #expect(store.outcomes[held] == .discarded(.shutdown))
        store.settle()
        store.expectFacts(where: { $0.isSwitchFact && !$0.isTeardownStep || $0.isResolution }, [
            "switchRouted s1 to B (eu): started (call 00000003)",
            "switchStarted s1 from A to B (eu)",
            "switchRouted s2 to C (us): enqueued behind s1 (call 00000004)",
            "switchCancelled s2: the SDK shut down before this switch began",
            "callResolved 00000005 discarded: the SDK shut down",
            "callResolved 00000003 discarded: the SDK shut down",
            "callResolved 00000004 discarded: the SDK shut down",
            "switchLanded s1 on B: switchedWithWarnings (no push token to disable; module in-app failed willSwitchProject B: interrupted by a restart; module embedded failed willSwitchProject B: interrupted by a restart; module push failed willSwitchProject B: interrupted by a restart)",
        ])
        #expect(store.state.live?.fingerprint == store.fingerprint(.B))
        store.skipReceivedFacts()      // the stop, the relaunch, the teardown's steps
        store.skipEffects()
    }

    @Test("a retry waiting for its timer at a relaunch is re-armed and sent when due")
    func timersRearmedAfterRelaunch() {
        let store = Self.on(.A)
        store.answer("events/track", status: 503)
        store.call(Self.track("retried"))
        store.advance(byMilliseconds: 100)      // answered 503: the retry waits for its timer
        store.restart()
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts([
            "timerFired retry t1 attempt 2",
            "taskDispatched t1 attempt 2",
            "transportCompleted t1 attempt 2: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
        ])
        store.expectEffects([
            "send t1 attempt 1",
            "armTimer retry t1 attempt 2 due t+2520ms",
            "complete 00000003 discarded: the SDK shut down",
            "send t1 attempt 2",
        ])
        store.expectRequests(Array(repeating: #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"retried"}"#, count: 2))
    }

    @Test("a switch waiting for its disable to be durable at a crash: the relaunch answers the wait (recovery made it durable) and the switch lands")
    func durabilityWaitAnsweredAfterRelaunch() {
        var timing = EngineStore.Timing()
        timing.syncMilliseconds = 1_000
        let store = Self.on(.A, timing: timing)
        store.call(.registerToken("token-a"))
        store.settle()
        let call = store.switchProject(to: .B)
        store.advance(byMilliseconds: 500)       // the disable's flush is still on the disk
        store.skipReceivedFacts()
        store.crash()
        store.advance(byMilliseconds: 100)
        store.expectFacts(where: { if case .durabilityConfirmed = $0 { true } else { $0.isSwitchFact && !$0.isTeardownStep } }, [
            "durabilityConfirmed #4",
            "switchLanded s1 on B: switchedCleanly",
        ])
        #expect(store.switchResults[call] == nil, "its completion died with the crashed process")
        #expect(store.state.live?.fingerprint == store.fingerprint(.B))
        store.settle()
        store.expectRequests([
            #"A users/registerDeviceToken {"device":{"applicationName":"engagement-sdk","platform":"APNS","token":"token-a"},"email":"ada@example.com"}"#,
            #"A users/disableDevice {"email":"ada@example.com","token":"token-a"}"#,
        ])
        store.skipReceivedFacts()      // the crash, the relaunch, the teardown's steps
        store.skipEffects()
    }

    // MARK: - A journal that fails

    @Test("the disk fails every sync: the SDK goes on in memory; repaired, the journal records again after a journaled gap the live state folds too")
    func journalComesBackWithGap() {
        let store = Self.on(.A)
        store.breakDisk()
        let flush = store.call(.flush)
        store.call(Self.track("during-outage"))
        store.advance(byMilliseconds: 1_000)    // (no settle: a broken disk is retried forever)
        #expect(store.outcomes[flush].map { if case .failed = $0 { true } else { false } } == true, "\(String(describing: store.outcomes[flush]))")
        store.repairDisk()
        store.advance(byMilliseconds: 120_000)
        store.expectFacts(where: { if case .journalGap = $0 { true } else { false } }, [
            "journalGap 5 fact(s) not recorded from t+2001ms to t+3001ms (from seq 34): the journal writer stopped after an earlier failure: simulated: fdatasync failed: Input/output error (errno 5)",
        ])
        store.call(Self.track("after-outage"))
        store.settle()
        store.expectFacts([            // the rest, in order: the flush fails not durable, the events go
            "callReceived flush (call 00000003)",
            "durabilityRequested #4 for flush call 00000003",
            "callReceived track \"during-outage\" (call 00000004)",
            "gateDecided 00000004 executed on A",
            "taskQueued t1 POST events/track for A (us) for user ada@example.com (call 00000004)",
            "taskDispatched t1 attempt 1",
            "durabilityConfirmed #4 failed: the journal writer stopped after an earlier failure: simulated: fdatasync failed: Input/output error (errno 5)",
            "callResolved 00000003 failed: not durable: the journal writer stopped after an earlier failure: simulated: fdatasync failed: Input/output error (errno 5)",
            "transportCompleted t1 attempt 1: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "callResolved 00000004 delivered to A (200)",
            "callReceived track \"after-outage\" (call 00000005)",
            "gateDecided 00000005 executed on A",
            "taskQueued t2 POST events/track for A (us) for user ada@example.com (call 00000005)",
            "taskDispatched t2 attempt 1",
            "transportCompleted t2 attempt 1: HTTP 200 Success",
            "taskCompleted t2 delivered (200)",
            "callResolved 00000005 delivered to A (200)",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"during-outage"}"#,
            #"A events/track {"createdAt":1764000123,"email":"ada@example.com","eventName":"after-outage"}"#,
        ])
        store.skipEffects()            // the flush's durability request, the sends and completions above
    }

    @Test("the disk fills up: the SDK goes on in memory and a flush says what is not durable; room again: a journaled gap that counts what was lost, and recording resumes")
    func diskFullComesBack() {
        let store = Self.on(.A)
        store.fillDisk()
        let whileFull = store.call(Self.track("while-full"))
        let flush = store.call(.flush)
        store.advance(byMilliseconds: 500)
        #expect(store.outcomes[whileFull] == .delivered(project: store.fingerprint(.A), status: 200), "the SDK keeps working")
        guard case .failed(.notDurable(let reason))? = store.outcomes[flush] else {
            Issue.record("a flush during the outage must fail: \(String(describing: store.outcomes[flush]))")
            return
        }
        #expect(reason.components(separatedBy: "No space left on device").count == 2, "\(reason)")
        store.repairDisk()
        store.advance(byMilliseconds: 2_000)     // the journal's retry falls due
        store.expectFacts(where: { if case .journalGap = $0 { true } else { false } }, [
            "journalGap 11 fact(s) not recorded from t+2000ms to t+3001ms (from seq 28): the journal writer stopped after an earlier failure: simulated: write failed: No space left on device (errno 28)",
        ])
        let after = store.call(Self.track("after"))
        let flushed = store.call(.flush)
        store.settle()
        #expect(store.outcomes[after] == .delivered(project: store.fingerprint(.A), status: 200))
        #expect(store.outcomes[flushed] == .applied(project: store.fingerprint(.A)))
        store.expectFacts(where: { if case .durabilityConfirmed = $0 { true } else { false } }, [
            "durabilityConfirmed #4 failed: the journal writer stopped after an earlier failure: simulated: write failed: No space left on device (errno 28)",
            "durabilityConfirmed #5",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"while-full"}"#,
            #"A events/track {"createdAt":1764000004,"email":"ada@example.com","eventName":"after"}"#,
        ])
        store.skipReceivedFacts()      // the calls' receipts and deliveries: checked through the outcomes
        store.skipEffects()
    }
}
