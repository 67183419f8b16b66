import Simulation
import Testing
@testable import SDK

/// Consent and erasure over the real `EngineShell` in the simulator's world (``EngineStore``):
/// what leaves, what resolves how, what the journal keeps. No thread, no socket. The store is
/// exhaustive: each test asserts the decisions, the sends the engine asks for and the requests
/// that reach the backend, and skips the rest (module hooks, relaunches) by name.
@Suite("Privacy (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct PrivacyStoreTests {
    /// A received call or a decision (not what the world answered).
    static func isCallOrDecision(_ fact: Fact) -> Bool {
        if case .callReceived = fact { return true }
        return FactKind(rawValue: FactCodec.kind(of: fact))?.isInput == false
    }

    static func track(_ name: String, _ fields: [String: DataValue]? = nil) -> PublicCall { .track(event: name, dataFields: fields) }

    @Test("declining drops the queued events, keeps nothing personal of later calls, sends nothing until agreed again")
    func declineAndAgree() {
        let store = SwitchContractStoreTests.onA()
        store.setOffline(true)
        let queued = store.call(Self.track("before", ["plan": "gold"]))
        store.advance(byMilliseconds: 100)
        store.skipReceivedFacts()
        let decline = store.call(.setConsent(granted: false))
        #expect(store.outcomes[queued] == nil, "resolved on the callback queue")
        store.runDue()
        #expect(store.outcomes[decline] == .applied(project: store.fingerprint(.A)))
        #expect(store.outcomes[queued] == .discarded(.consentDeclined))
        store.expectFacts(where: Self.isCallOrDecision, [
            "callReceived setConsent declined (call 00000004)",
            "taskCompleted t1 discarded: the user declined consent",
            "callResolved 00000003 discarded: the user declined consent",
            "callResolved 00000004 applied on A",
        ])

        store.setOffline(false)
        let email = store.call(.setEmail("grace@example.com"))
        let tracked = store.call(Self.track("after", ["plan": "gold", "note": "private"]))
        let click = store.call(.inAppClick(messageID: "m-1", url: "https://shop.example.com/offer?email=grace@example.com"))
        store.settle()
        store.expectFacts([
            "callReceived setEmail \"\" (call 00000005)",
            "gateDecided 00000005 refused",
            "callResolved 00000005 discarded: the user declined consent",
            "callReceived track \"after\" {note, plan} (call 00000006)",
            "gateDecided 00000006 refused",
            "callResolved 00000006 discarded: the user declined consent",
            "callReceived inAppClick \"m-1\"  (call 00000007)",
            "gateDecided 00000007 refused",
            "callResolved 00000007 discarded: the user declined consent",
        ])
        for call in [email, tracked, click] { #expect(store.outcomes[call] == .discarded(.consentDeclined)) }
        #expect(store.takeRequests().isEmpty, "no request leaves while declined")
        #expect(store.state.email == "ada@example.com", "a declined call changes nothing")
        #expect(!store.journaledRecords().joined().contains("grace"))

        store.restart()
        #expect(store.state.consentDeclined, "the choice is part of the fold: it survives a relaunch")
        store.initialize(.A)
        let whileRelaunched = store.call(Self.track("relaunched"))
        store.settle()
        #expect(store.outcomes[whileRelaunched] == .discarded(.consentDeclined))

        let agree = store.call(.setConsent(granted: true))
        let delivered = store.call(Self.track("agreed"))
        store.settle()
        #expect(store.outcomes[agree] == .applied(project: store.fingerprint(.A)))
        #expect(store.outcomes[delivered] == .delivered(project: store.fingerprint(.A), status: 200))
        #expect(store.takeRequests().map(\.path) == ["events/track"])
        store.expectEffects(where: \.isSend, [
            "send t1 attempt 1",        // offline, before declining
            "send t2 attempt 1",        // once agreed again: nothing was asked to leave in between
        ])
        store.skipReceivedFacts()      // the relaunch and the modules' hooks
        store.skipEffects()
    }

    @Test("a disable queued by a switch waits while declined and is sent once the user agrees again")
    func disableWaitsForConsent() {
        let store = SwitchContractStoreTests.onA()
        store.call(.registerToken("push-token-1"))
        store.settle()
        store.skipRequests()
        store.skipEffects()
        store.call(.setConsent(granted: false))
        let switched = store.switchProject(to: .B)
        store.settle()
        #expect(store.switchResults[switched] != nil, "the switch lands while declined")
        #expect(store.takeRequests().isEmpty, "the outgoing device's disable waits")
        store.expectEffects(where: \.isSend, [])
        #expect(store.state.tasks.values.contains { $0.task.isDisableDevice })
        store.call(.setConsent(granted: true))
        store.settle()
        #expect(store.takeRequests().map { "\($0.project) \($0.path)" } == ["A users/disableDevice"])
        store.expectEffects(where: \.isSend, [
            "send t2 attempt 1",
        ])
        store.skipReceivedFacts()      // the switch's teardown and the modules' hooks
        store.skipEffects()
    }

    @Test("eraseLocalData deletes every record and the queue, forgets the user, and the journal goes on")
    func erase() {
        let store = SwitchContractStoreTests.onA()
        store.call(.registerToken("push-token-1"))
        store.settle()
        store.setOffline(true)
        let queued = store.call(Self.track("queued", ["plan": "gold"]))
        store.advance(byMilliseconds: 100)
        #expect(store.journaledRecords().joined().contains("ada@example.com"))
        store.skipReceivedFacts()

        let erase = store.call(.eraseLocalData)
        store.runDue()
        #expect(store.outcomes[erase] == .applied(project: store.fingerprint(.A)))
        #expect(store.outcomes[queued] == .discarded(.erased))
        let facts = store.takeFacts()
        #expect(facts.contains("storageCleared A personal data"))
        #expect(facts.contains { $0.hasPrefix("localDataErased ") && $0.contains("record(s) (seq 1–") && $0.contains("erased on request") })
        #expect(store.state.email == nil && store.state.userID == nil && store.state.pushToken == nil)
        #expect(store.state.tasks.isEmpty)

        store.advance(byMilliseconds: 10)
        let journal = store.journaledRecords()
        #expect(journal.first == "snapshot email=nil userId=nil", "the journal goes on from a snapshot without the user")
        #expect(journal.dropFirst().first?.hasPrefix("localDataErased ") == true)
        #expect(!journal.joined().contains("ada@example.com"))
        #expect(!journal.joined().contains("push-token-1"))

        store.setOffline(false)
        store.call(.setEmail("grace@example.com"))
        let after = store.call(Self.track("after"))
        store.settle()
        #expect(store.outcomes[after] == .delivered(project: store.fingerprint(.A), status: 200), "the SDK keeps running")
        store.restart()
        store.initialize(.A)
        #expect(store.state.email == "grace@example.com", "what came after the erasure survives a relaunch")
        store.expectEffects(where: \.isSend, [
            "send t1 attempt 1",        // the token's registration
            "send t2 attempt 1",        // the queued event's attempt, offline: erased, never sent again
            "send t3 attempt 1",
        ])
        store.expectRequests([
            #"A users/registerDeviceToken {"device":{"applicationName":"engagement-sdk","platform":"APNS","token":"push-token-1"},"email":"ada@example.com"}"#,
            #"A events/track {"createdAt":1764000002,"email":"grace@example.com","eventName":"after"}"#,
        ])
        store.skipReceivedFacts()      // the new user's calls, the relaunch, the modules' hooks
        store.skipEffects()
    }

    @Test("an erasure while a switch holds calls drops them too: their arguments leave the state and the journal")
    func eraseDuringSwitch() {
        let store = SwitchContractStoreTests.onA()
        let switched = store.switchProject(to: .B)
        let held = store.call(.setEmail("grace@example.com"))
        #expect(store.state.switching.gate.count == 1, "held by the switch")
        let erase = store.call(.eraseLocalData)
        #expect(store.state.switching.gate.isEmpty)
        store.settle()
        #expect(store.outcomes[held] == .discarded(.erased))
        #expect(store.outcomes[erase] != nil)
        #expect(store.switchResults[switched] != nil, "the switch lands")
        #expect(store.state.email == nil)
        #expect(!store.journaledRecords().joined().contains("grace"))
        store.expectEffects(where: \.isSend, [])     // nothing of the held call left
        store.skipReceivedFacts()      // the switch's teardown and the erasure's records
        store.skipEffects()
    }
}
