import Simulation
import Testing
@testable import SDK

/// Two clocks over the real `EngineShell` in the simulator's world: the journal's time, every
/// age and timer run on the monotonic clock; a wall clock that jumps is journaled
/// (`clockJumped`), never obeyed.
@Suite("Clocks (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct ClockStoreTests {
    @Test("the date set 8 days ahead mid-retry: journaled once at the next input, the retry still due a second after the failure, nothing expired")
    func forwardJumpMidRetry() {
        let store = SwitchContractStoreTests.onA()
        store.setOffline(true)
        let call = store.call(.track(event: "offline", dataFields: nil))
        store.runDue()
        store.skipReceivedFacts()
        store.jumpWallClock(byMilliseconds: 8 * 86_400_000)
        store.setOffline(false)
        store.advance(byMilliseconds: 1_000)
        store.expectFacts([
            "timerFired retry t1 attempt 2",
            "taskDispatched t1 attempt 2",
            "clockJumped the device's clock jumped +8 d 0 h: it reads 2025-12-02T16:00:02.500000Z; the journal's time runs on the monotonic clock and did not jump",
            "transportCompleted t1 attempt 2: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "callResolved 00000003 delivered to A (200)",
        ])
        store.settle()
        #expect(store.outcomes[call] == .delivered(project: store.fingerprint(.A), status: 200))
        #expect(store.state.clockOffsetMicroseconds == 8 * 86_400_000_000)
        store.expectEffects([
            "send t1 attempt 1",
            "armTimer retry t1 attempt 2 due t+2500ms",
            "send t1 attempt 2",
            "complete 00000003 delivered to A (200)",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"offline"}"#,
        ])
    }

    @Test("the date set back an hour during a switch: the disable's durability bound passes on time, and the jump is journaled once")
    func backwardJumpDuringSwitch() {
        let store = SwitchContractStoreTests.onA()
        store.call(.registerToken("token-1"))
        store.settle()
        store.skipReceivedFacts()
        store.switchProject(to: .B)
        store.jumpWallClock(byMilliseconds: -3_600_000)
        store.settle()
        let facts = store.takeFactValues()
        let jumps = facts.filter { if case .clockJumped = $0 { true } else { false } }
        #expect(jumps.count == 1)
        #expect(facts.contains { if case .switchLanded = $0 { true } else { false } })
        #expect(store.state.clockOffsetMicroseconds == -3_600_000_000)
        #expect(store.elapsedMilliseconds < 60_000, "no timer waited out the hour")
        store.expectRequests([
            #"A users/registerDeviceToken {"device":{"applicationName":"engagement-sdk","platform":"APNS","token":"token-1"},"email":"ada@example.com"}"#,
            #"A users/disableDevice {"email":"ada@example.com","token":"token-1"}"#,
        ])
        store.skipEffects()            // the switch's teardown
    }
}
