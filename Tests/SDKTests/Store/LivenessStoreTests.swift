import Journal
import Simulation
import Testing
@testable import SDK

/// What must happen, does: no task blocks another, token refreshes last, an event's age is its
/// own, a failure ends only the task it was for. Over the real `EngineShell` in the simulator's
/// world. The store is exhaustive: facts, requests and effects asserted where they are the point,
/// the rest skipped by name.
@Suite("Liveness (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct LivenessStoreTests {
    static func track(_ name: String) -> PublicCall { .track(event: name, dataFields: nil) }

    /// On JWT project C, ada registered a push token, then logged out offline (her disable is
    /// queued, waiting for the network); the app relaunched, bob signed in. The auth server
    /// mints for bob only.
    static func adaLoggedOutBobSignedIn(refusesAsSignedOut: Bool) -> EngineStore {
        let store = EngineStore(rules: hour)
        store.initialize(.C)
        store.call(.setEmail("ada@example.com"))
        store.call(.registerToken("ada-device"))
        store.settle()
        store.setOffline(true)
        store.call(.logoutUser)
        store.runDue()
        store.restart()
        store.authServerSignsIn(["bob@example.com"], refusesAsSignedOut: refusesAsSignedOut)
        store.initialize(.C)
        store.call(.setEmail("bob@example.com"))
        store.setOffline(false)
        store.networkBecameReachable()
        store.skipReceivedFacts()
        store.skipEffects()
        store.skipRequests()
        return store
    }

    @Test("a signed-out user's disable the provider refuses fails at once, naming why; the signed-in user's 20 events are delivered meanwhile")
    func refusedUserDoesNotBlock() {
        let store = Self.adaLoggedOutBobSignedIn(refusesAsSignedOut: true)
        let calls = (0..<20).map { store.call(Self.track("bob-\($0)")) }
        store.advance(byMilliseconds: 1_000)
        for call in calls { #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.C), status: 200)) }
        let failed = store.takeFactValues().compactMap { fact -> CallFailure? in
            if case .taskCompleted(_, .failed(let failure)) = fact { failure } else { nil }
        }
        #expect(failed == [.authentication("the auth provider refused a JWT for its user, who signed out (userSignedOut)")],
                "failed at once, never tried again")
        store.settle()
        #expect(store.takeRequests().map(\.path) == ["users/registerDeviceToken", "events/trackBulk"],
                "bob's device and his events; nothing went out for ada without her JWT")
        store.skipReceivedFacts()      // the bulk's answer after the settle
        store.skipEffects()            // each event's send and completion: checked through the outcomes
    }

    @Test("a provider that fails for a signed-out user in a way that may pass: her disable waits aside, bounded, while the signed-in user's events go; it fails at the age limit (an hour here)")
    func failingProviderWaitsAside() {
        let store = Self.adaLoggedOutBobSignedIn(refusesAsSignedOut: false)
        let calls = (0..<20).map { store.call(Self.track("bob-\($0)")) }
        store.advance(byMilliseconds: 60_000)
        for call in calls { #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.C), status: 200)) }
        let aside = store.state.tasks.values.filter { $0.aside != nil }
        #expect(aside.count == 1 && aside.first?.task.isDisableDevice == true, "ada's disable waits aside")
        store.advance(byMilliseconds: 3_600_000 + 600_000)
        store.settle()
        let failures = store.takeFactValues().compactMap { fact -> CallFailure? in
            if case .taskCompleted(_, .failed(let failure)) = fact { failure } else { nil }
        }
        guard case .authentication(let reason)? = failures.last else {
            Issue.record("expected the disable to fail at the age limit, got \(failures)")
            return
        }
        #expect(reason.hasPrefix("not sent within the age limit") && reason.contains("not signed in"), "\(reason)")
        #expect(store.state.tasks.isEmpty)
        #expect(store.takeRequests().map(\.path) == ["users/registerDeviceToken", "events/trackBulk"],
                "bob's device and his events; nothing went out for ada without her JWT")
        store.skipEffects()            // an hour of attempts aside and their timers
    }

    @Test("a failed refresh ends the request it was for, not the one at the head: ada's 401'd track purged by a logout, her disable is not failed by the provider's failure")
    func failedRefreshEndsItsOwnRequest() {
        var timing = EngineStore.Timing()
        timing.authMilliseconds = 15_000   // every token comes too late: past the 10 s bound
        let store = EdgesStoreTests.on(.C)
        store.call(.registerToken("ada-device"))
        store.settle()
        // Now the provider is slow: the 401's refresh times out after the logout purged the track.
        store.authServerSignsIn([], refusesAsSignedOut: false)
        store.answer("events/track", status: 401, body: #"{"code":"InvalidJwtPayload","msg":"JWT token is expired"}"#)
        let doomed = store.call(Self.track("refused"))
        store.advance(byMilliseconds: 25)
        store.call(.logoutUser)
        store.advance(byMilliseconds: 20)
        #expect(store.outcomes[doomed] == .discarded(.purgedByLogout))
        let facts = store.takeFactValues().map(store.describe)
        #expect(facts.contains { $0.hasPrefix("authRefreshFinished") && $0.contains("failed") }, "\(facts)")
        #expect(!facts.contains { $0.hasPrefix("taskCompleted") && $0.contains("failed") },
                "the refresh's failure ends no other task: \(facts.filter { $0.hasPrefix("taskCompleted") })")
        #expect(store.state.tasks.values.contains { $0.task.isDisableDevice }, "the disable is still queued")
        #expect(store.takeRequests().map(\.path) == ["users/registerDeviceToken", "events/track"], "the track went once (its 401)")
        store.skipEffects()            // the hooks of the logout, the refresh, the timers
    }

    /// An hour's age limit: the issue's week, scaled (t0, t0+1 min, t0+59 min, back at t0+62 min).
    static let hour = EngineRules(deliveryAgeLimitMilliseconds: 3_600_000)

    @Test("an event's age is its own: at t0, t0+1 min and t0+59 min offline (an hour's age limit), the network back at t0+62 min: the first two expire, the last is delivered")
    func youngEventKeepsItsAge() {
        let store = SwitchContractStoreTests.onA(rules: Self.hour)
        store.setOffline(true)
        let first = store.call(Self.track("t0"))
        store.advance(byMilliseconds: 60_000)
        let second = store.call(Self.track("t0+1min"))
        store.advance(byMilliseconds: 58 * 60_000)
        let young = store.call(Self.track("t0+59min"))
        #expect(store.state.tasks.values.contains { $0.task.batchCalls.contains(young) }, "the young event joined the older one's bulk")
        store.advance(byMilliseconds: 3 * 60_000)
        store.setOffline(false)
        store.networkBecameReachable()
        store.settle()
        let expired = DiscardReason.expired(ageLimit: .milliseconds(Self.hour.deliveryAgeLimitMilliseconds))
        #expect(store.outcomes[first] == .discarded(expired))
        #expect(store.outcomes[second] == .discarded(expired))
        #expect(store.outcomes[young] == .delivered(project: store.fingerprint(.A), status: 200))
        store.expectRequests([         // the bulk left without its expired events
            #"A events/trackBulk {"events":[{"createdAt":1764003542,"email":"ada@example.com","eventName":"t0+59min"}]}"#,
        ])
        #expect(!store.takeFactValues(where: { if case .eventsExpired = $0 { true } else { false } }).isEmpty)
        store.skipReceivedFacts()      // an hour offline: attempts, retries, timers
        store.skipEffects()
    }

    @Test("tokens that expire every hour, a track every 10 minutes for 6 hours: every event is delivered, each 401 refreshed once")
    func hourlyTokensForSixHours() {
        let store = EdgesStoreTests.on(.C)
        var calls: [CallID] = []
        for index in 0..<36 {
            if index > 0 && index % 6 == 0 {
                // The hour's token expires: the next request is answered 401 once.
                store.answer("events/track", on: .C, status: 401, body: #"{"code":"InvalidJwtPayload","msg":"JWT token is expired"}"#)
            }
            calls.append(store.call(Self.track("tick-\(index)")))
            store.advance(byMilliseconds: 600_000)
        }
        store.settle()
        for call in calls { #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.C), status: 200)) }
        let refreshes = store.takeFactValues(where: { if case .authRefreshRequested = $0 { true } else { false } })
        #expect(refreshes.count == 5)
        #expect(store.takeRequests().count == 36 + 5, "each event once, and again after each of the five 401s")
        store.skipReceivedFacts()      // six hours of deliveries
        store.skipEffects()
    }
}

/// Erasure on the wire, disables coalesced, the outgoing backlog kept: the contract of each, on
/// the store.
@Suite("Edges of erasure, disables and switches (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct ErasureAndDisableStoreTests {
    @Test("an erasure lets go of the request on the wire: its call resolves as erased at once, and its answer, when no response comes, sends nothing again")
    func erasureStopsTheWire() {
        let store = SwitchContractStoreTests.onA()
        store.refuse("events/track")               // its attempt will get no response
        let onTheWire = store.call(LivenessStoreTests.track("on-the-wire"))
        store.advance(byMilliseconds: 5)           // on the wire, not answered yet
        store.skipReceivedFacts()
        store.call(.eraseLocalData)
        store.expectFacts([
            "callReceived eraseLocalData (call 00000004)",
            "taskCompleted t1 discarded: erased on request (eraseLocalData)",
            "callResolved 00000003 discarded: erased on request (eraseLocalData)",
            "storageCleared A personal data",
            "localDataErased 35 record(s) (seq 1–35) erased on request, 1 segment(s), 1042 bytes (call 00000004)",
            "callResolved 00000004 applied on A",
        ])
        store.settle()
        store.expectFacts([            // the answer that never came is journaled, and nothing follows it
            "transportCompleted t1 attempt 1: network error: connection refused",
        ])
        #expect(store.outcomes[onTheWire] == .discarded(.erased))
        #expect(store.state.tasks.isEmpty)
        store.expectRequests([         // sent once, before the erasure
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"on-the-wire"}"#,
        ])
        store.expectEffects([
            "send t1 attempt 1",
            "eraseLocalData (call 00000004)",
            "complete 00000003 discarded: erased on request (eraseLocalData)",
            "identityChanged nobody",
            "complete 00000004 applied on A",
        ])
    }

    @Test("a disable asked for again and again offline is one request: each call resolves with it, the queue holds one task")
    func disablesCoalesce() {
        let store = SwitchContractStoreTests.onA()
        store.call(.registerToken("ada-device"))
        store.settle()
        store.setOffline(true)
        let first = store.call(.disableDevice)
        store.advance(byMilliseconds: 100)          // its attempt got no response: it waits to retry
        let calls = [first] + (1..<50).map { _ in store.call(.disableDevice) }
        store.advance(byMilliseconds: 100)
        #expect(store.state.tasks.values.filter { $0.task.isDisableDevice }.count == 1)
        #expect(store.takeFactValues().filter { if case .disableCoalesced = $0 { true } else { false } }.count == 49)
        store.setOffline(false)
        store.networkBecameReachable()
        store.settle()
        for call in calls { #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.A), status: 200)) }
        store.expectFacts([
            "networkReachable the app said the network is reachable",
            "taskDispatched t2 attempt 2",
            "transportCompleted t2 attempt 2: HTTP 200 Success",
            "taskCompleted t2 delivered (200)",
            "callsResolved 50 calls of t2 delivered to A (200): " + calls.map(\.description).joined(separator: " "),
        ])
        store.expectRequests([
            #"A users/registerDeviceToken {"device":{"applicationName":"engagement-sdk","platform":"APNS","token":"ada-device"},"email":"ada@example.com"}"#,
            #"A users/disableDevice {"email":"ada@example.com","token":"ada-device"}"#,
        ])
        store.skipEffects()            // the calls' completions: checked through the outcomes
    }

    /// Found by the simulator's liveness checks (seeds 466, 567 and 417 of the issue-42 world):
    /// a `disableDevice` coalesced into a logout's disable never resolved (the delivered task
    /// had no call of its own), and several coalesced calls resolved one record each, which
    /// `replay recheck` read as a bulk's.
    @Test("disables the app asks for while a logout's disable of the same device waits resolve with it, in one record")
    func coalescedIntoLogoutsDisable() {
        let store = SwitchContractStoreTests.onA()
        store.call(.registerToken("ada-device"))
        store.settle()
        store.setOffline(true)
        store.call(.logoutUser)                     // queues ada's disable (the SDK's own: no call)
        store.advance(byMilliseconds: 100)          // its attempt got no response: it waits to retry
        store.call(.setEmail("ada@example.com"))
        let calls = [store.call(.disableDevice), store.call(.disableDevice)]
        #expect(store.state.tasks.values.filter { $0.task.isDisableDevice }.count == 1)
        store.skipReceivedFacts()
        store.setOffline(false)
        store.networkBecameReachable()
        store.settle()
        for call in calls { #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.A), status: 200)) }
        let resolutions = store.takeFactValues().filter { fact in
            switch fact {
            case .callResolved(let call, _): calls.contains(call)
            case .callsResolved(_, let resolved, _): resolved == calls
            default: false
            }
        }
        #expect(resolutions.count == 1, "one callsResolved for both: \(resolutions)")
        store.expectRequests([
            #"A users/registerDeviceToken {"device":{"applicationName":"engagement-sdk","platform":"APNS","token":"ada-device"},"email":"ada@example.com"}"#,
            #"A users/disableDevice {"email":"ada@example.com","token":"ada-device"}"#,
            #"A users/registerDeviceToken {"device":{"applicationName":"engagement-sdk","platform":"APNS","token":"ada-device"},"email":"ada@example.com"}"#,
        ])
        store.skipEffects()            // the logout's hooks, the calls' completions
    }

    /// Found by the simulator's liveness check (seed 19056 of the issue-42 world): a user's
    /// tasks wait aside behind each other, and each waited the whole age limit from its own
    /// first attempt, so a disable queued behind its user's registration ended after two.
    @Test("tasks of a user no JWT can be had for wait aside at most the age limit from when each was made, not one after another")
    func asideBoundedFromMaking() {
        let store = EngineStore(rules: LivenessStoreTests.hour)
        store.initialize(.C)
        store.call(.setEmail("ada@example.com"))
        store.settle()
        store.authServerSignsIn([], refusesAsSignedOut: false)
        let registered = store.call(.registerToken("ada-device"))
        let disabled = store.call(.disableDevice)      // waits behind her registration (a disable never expires)
        store.advance(byMilliseconds: 3_600_000 + 600_000)
        #expect(store.outcomes[registered] != nil, "the registration ended within the age limit")
        #expect(store.outcomes[disabled] != nil, "so did the disable that waited behind it")
        #expect(store.state.tasks.isEmpty)
        store.skipReceivedFacts()      // an hour of attempts aside: the outcomes are the story
        store.skipEffects()
    }

    /// Found by the simulator's liveness run (seed 91804 of the issue-42 world): an erasure
    /// while a landed switch still replayed its held calls let the gate go, but the switch
    /// queued behind never started, and its call never resolved.
    @Test("an erasure while a landed switch replays its held calls lets the switches queued behind it go on")
    func erasureReleasesTheSwitchQueue() {
        let store = SwitchContractStoreTests.onA(rules: EngineRules(queueCapacity: 1))
        store.setOffline(true)
        store.call(LivenessStoreTests.track("fills-the-queue"))
        let toB = store.switchProject(to: .B)
        store.call(LivenessStoreTests.track("held-1"))
        store.call(LivenessStoreTests.track("held-2"))
        store.call(LivenessStoreTests.track("held-3"))
        let toC = store.switchProject(to: .C)
        store.advance(byMilliseconds: 5_000)
        #expect(store.switchResults[toB] != nil, "the first switch landed")
        store.call(.eraseLocalData)
        store.setOffline(false)
        store.settle()
        #expect(store.switchResults[toC] != nil, "the switch queued behind it landed")
        #expect(store.state.pendingCalls.isEmpty)
        store.skipReceivedFacts()      // two switches' teardowns and the erasure: the results are the story
        store.skipEffects()
    }

    /// Found by the simulator's privacy check (seed 961 of the issue-42 world): a request that
    /// waited for its JWT when the user declined left when the JWT came.
    @Test("a request waiting for its JWT when the user declines does not leave when the JWT comes; it goes once the user agrees again")
    func declinedWhileTheJWTIsAskedFor() {
        let store = EngineStore()
        store.initialize(.C)
        store.call(.setEmail("ada@example.com"))
        store.settle()
        store.skipRequests()
        let tracked = store.call(LivenessStoreTests.track("before-declining"))   // dispatched: its JWT is asked for
        store.call(.setConsent(granted: false))
        store.advance(byMilliseconds: 60_000)
        #expect(store.takeRequests().isEmpty, "nothing left while declined")
        #expect(store.outcomes[tracked] == nil, "it waits for consent")
        store.call(.setConsent(granted: true))
        store.settle()
        #expect(store.outcomes[tracked] == .delivered(project: store.fingerprint(.C), status: 200))
        store.expectRequests([
            #"C events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"before-declining"}"#,
        ])
        store.skipReceivedFacts()      // the JWT's request and the attempts: the outcome is the story
        store.skipEffects()
    }

    @Test("keepForOutgoing: events tracked offline on A before a switch to B stay aimed at A and reach it once the network is back")
    func outgoingBacklogKept() {
        let store = SwitchContractStoreTests.onA(rules: EngineRules(pendingEvents: .keepForOutgoing))
        store.setOffline(true)
        let purchase = store.call(.trackPurchase(total: 12, items: [CommerceItem(id: "sku-1", name: "Book", price: 12, quantity: 1)],
                                                 dataFields: nil))
        let tracked = store.call(LivenessStoreTests.track("offline-on-A"))
        store.advance(byMilliseconds: 100)
        let switched = store.switchProject(to: .B, then: [.setEmail("bea@example.com")])
        store.advance(byMilliseconds: 5_000)
        #expect(store.switchResults[switched] != nil, "the switch landed without waiting for them")
        #expect(store.outcomes[purchase] == nil && store.outcomes[tracked] == nil, "kept, not purged")
        store.setOffline(false)
        store.networkBecameReachable()
        store.settle()
        #expect(store.outcomes[purchase] == .delivered(project: store.fingerprint(.A), status: 200))
        #expect(store.outcomes[tracked] == .delivered(project: store.fingerprint(.A), status: 200))
        store.expectRequests([         // both to A, nothing to B
            #"A commerce/trackPurchase {"createdAt":1764000002,"items":[{"id":"sku-1","name":"Book","price":12,"quantity":1}],"total":12,"user":{"email":"ada@example.com"}}"#,
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"offline-on-A"}"#,
        ])
        store.skipReceivedFacts()      // the switch's teardown and the attempts offline
        store.skipEffects()
    }
}
