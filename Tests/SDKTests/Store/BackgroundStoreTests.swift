import Locking
import Simulation
import Testing
@testable import SDK

/// Background time over the real `EngineShell` in the simulator's world: entering the background
/// sends what waits and makes the journal durable, and the time is given back, once, before it
/// runs out; each step is journaled. The store is exhaustive: each test asserts the background
/// task's facts and what was sent, and skips the rest (retries offline) by name.
@Suite("Background time (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct BackgroundStoreTests {
    /// Time of `seconds`, counting how often it is given back.
    static func time(seconds: Int64) -> (BackgroundTime, Locked<Int>) {
        let ends = Locked(0)
        return (BackgroundTime(budget: .seconds(seconds)) { ends.withLock { $0 += 1 } }, ends)
    }

    /// On A with one track waiting in its backoff after a request that got no response.
    static func onAWithOneWaiting(offline: Bool = false) -> EngineStore {
        let store = SwitchContractStoreTests.onA()
        store.setOffline(true)
        store.call(.track(event: "offline", dataFields: nil))
        store.runDue()
        store.advance(byMilliseconds: 100)
        store.setOffline(offline)
        store.skipReceivedFacts()
        store.skipEffects()
        return store
    }

    static let began = "backgroundTaskBegan the app went to the background: task 1 granted 30 s to make the journal durable and send what waits"

    @Test("entering the background: the waiting request goes at once, the journal is made durable, and the time is given back once both are done")
    func flushedThenGivenBack() {
        let store = Self.onAWithOneWaiting()
        let (time, ends) = Self.time(seconds: 30)
        store.enterBackground(time)
        store.advance(byMilliseconds: 100)
        store.expectFacts([
            Self.began,
            "taskDispatched t1 attempt 2",
            "transportCompleted t1 attempt 2: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "callResolved 00000003 delivered to A (200)",
            "backgroundFlushFinished task 1's flush: the journal durable, 1 request(s) queued at the start, nothing left to send",
            "backgroundTaskEnded task 1 given back to the system: its flush was done",
        ])
        #expect(ends.withLock { $0 } == 1)
        store.settle()
        #expect(ends.withLock { $0 } == 1, "given back once: the deadline that falls due later finds no task")
        store.expectEffects([
            "send t1 attempt 2",
            "complete 00000003 delivered to A (200)",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"offline"}"#,
        ])
    }

    @Test("still offline: the time is given back at the deadline, 5 s before the budget ends, with what is left counted; it waits for later")
    func deadlineBeforeTheBudgetEnds() {
        let store = Self.onAWithOneWaiting(offline: true)
        let (time, ends) = Self.time(seconds: 30)
        let start = store.elapsedMilliseconds
        store.enterBackground(time)
        store.advance(byMilliseconds: 24_999)
        #expect(ends.withLock { $0 } == 0, "held while the request may still go")
        store.expectFacts(where: { if case .backgroundTaskBegan = $0 { true } else { false } }, [Self.began])
        store.advance(byMilliseconds: 1)
        #expect(ends.withLock { $0 } == 1)
        #expect(store.elapsedMilliseconds - start == 25_000)
        store.expectFacts(where: { fact in
            switch fact {
            case .backgroundFlushFinished, .backgroundTaskEnded, .backgroundTaskExpired: true
            default: false
            }
        }, [
            "backgroundFlushFinished task 1's flush: the journal durable, 1 request(s) queued at the start, 1 request(s) still waiting",
            "backgroundTaskEnded task 1 given back to the system: its budget was about to run out",
        ])
        store.skipReceivedFacts()      // the attempts offline and their retries
        store.skipEffects()
    }

    @Test("the system takes the time back first: expiry journaled, the flush's outcome, then the end; given back once")
    func expiredFirst() {
        let store = Self.onAWithOneWaiting(offline: true)
        let (time, ends) = Self.time(seconds: 30)
        store.enterBackground(time)
        store.advance(byMilliseconds: 1_000)
        store.skipReceivedFacts()
        time.expire()
        store.runDue()
        store.expectFacts([
            "backgroundTaskExpired the system took task 1's time back before the SDK ended it",
            "backgroundFlushFinished task 1's flush: the journal durable, 1 request(s) queued at the start, 1 request(s) still waiting",
            "backgroundTaskEnded task 1 given back to the system: the system took its time back",
        ])
        time.expire()
        // A minute on, past the budget (offline, the world never settles: its retries go on).
        store.advance(byMilliseconds: 60_000)
        #expect(ends.withLock { $0 } == 1)
        store.expectFacts(where: { if case .backgroundTaskExpired = $0 { true } else { false } }, [])
        store.skipReceivedFacts()      // the attempts offline and their retries
        store.skipEffects()
    }

    @Test("back to the foreground first: the time is given back then; more time while holding some is given back at once, unjournaled")
    func foregroundAndSecondGrant() {
        let store = Self.onAWithOneWaiting(offline: true)
        let (time, ends) = Self.time(seconds: 30)
        let (second, secondEnds) = Self.time(seconds: 30)
        store.enterBackground(time)
        store.enterBackground(second)
        #expect(secondEnds.withLock { $0 } == 1)
        store.runDue()
        store.enterForeground()
        store.expectFacts(where: { fact in
            switch fact {
            case .backgroundTaskBegan, .backgroundFlushFinished, .backgroundTaskEnded: true
            default: false
            }
        }, [
            Self.began,
            "backgroundFlushFinished task 1's flush: the journal NOT known durable (not confirmed before the task ended), 1 request(s) queued at the start, 1 request(s) still waiting",
            "backgroundTaskEnded task 1 given back to the system: the app came back to the foreground",
        ])
        #expect(ends.withLock { $0 } == 1)
        store.enterForeground()
        // A minute on, past both budgets (offline, the world never settles: its retries go on).
        store.advance(byMilliseconds: 60_000)
        #expect(ends.withLock { $0 } == 1)
        #expect(secondEnds.withLock { $0 } == 1)
        store.skipReceivedFacts()      // the attempts offline and their retries
        store.skipEffects()
    }

    @Test("a disk that fails the flush: the outcome says the journal is not known durable, and why")
    func flushFails() {
        let store = Self.onAWithOneWaiting()
        store.breakDisk()
        let (time, ends) = Self.time(seconds: 30)
        store.enterBackground(time)
        store.advance(byMilliseconds: 100)
        store.expectFacts([
            Self.began,
            "taskDispatched t1 attempt 2",
            "transportCompleted t1 attempt 2: HTTP 200 Success",
            "taskCompleted t1 delivered (200)",
            "callResolved 00000003 delivered to A (200)",
            "backgroundFlushFinished task 1's flush: the journal NOT known durable (the journal writer stopped after an earlier failure: "
                + "simulated: fdatasync failed: Input/output error (errno 5)), 1 request(s) queued at the start, nothing left to send",
            "backgroundTaskEnded task 1 given back to the system: its flush was done",
        ])
        #expect(ends.withLock { $0 } == 1)
        store.repairDisk()
        store.settle()
        store.expectFacts([
            "journalGap 5 fact(s) not recorded from t+2120ms to t+3102ms (from seq 36): the journal writer stopped after an earlier failure: simulated: fdatasync failed: Input/output error (errno 5)",
        ])
        store.expectEffects([
            "send t1 attempt 2",
            "complete 00000003 delivered to A (200)",
        ])
        store.expectRequests([
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"offline"}"#,
        ])
    }
}
