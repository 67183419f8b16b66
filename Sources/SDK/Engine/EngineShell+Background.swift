import Journal
import SDKCore

// Background time (``EngagementSDK/applicationDidEnterBackground(_:)``): the journal made durable,
// what waits sent, the time given back before it runs out. Each step is an input fact, so the
// journal says what the SDK did with the time and `replay` shows it.
extension EngineShell {
    /// Takes `time`: journals the task's start (whose decision sends what waits for the network
    /// now), asks the journal for durability, and sets the deadline a margin before the budget
    /// ends. Time given while the engine holds some is given back at once.
    func enterBackground(_ time: BackgroundTime) {
        guard background == nil else { return time.end() }
        backgroundTasksBegun += 1
        let task = backgroundTasksBegun
        let budget = max(0, time.budget.wholeMicroseconds)
        let queued = UInt64(projected.tasks.count)
        background = BackgroundSession(task: task, time: time, queued: queued)
        handleBackground(.backgroundTaskBegan(task: task, budgetMicroseconds: budget))
        let inbox = inbox
        if !time.onExpire({ inbox.post(.backgroundTimeExpired(task: task)) }) {
            return backgroundTimeExpired(task: task)
        }
        let margin = min(EngagementSDK.backgroundMarginMicroseconds, budget / 5)
        schedule(at: now().advanced(byMicroseconds: budget - margin)) { inbox.post(.backgroundDeadline(task: task)) }
        if let journalOutage {
            background?.flushFailure = "the journal is out: \(journalOutage.reason)"
        } else {
            inbox.effectBegan()
            recorder.flush { result in
                let failure: String? = switch result {
                case .success: nil
                case .failure(let error): "\(error)"
                }
                inbox.finish(.backgroundJournalFlushed(task: task, failure: failure))
            }
        }
    }

    func backgroundJournalFlushed(task: UInt64, failure: String?) {
        guard background?.task == task else { return }
        background?.flushFailure = failure ?? ""
    }

    /// The system took the time back: journaled, then the time is given back at once.
    func backgroundTimeExpired(task: UInt64) {
        guard background?.task == task else { return }
        handleBackground(.backgroundTaskExpired(task: task))
        endBackgroundTask(.expired)
    }

    /// Gives the time back once the journal is durable and nothing that could be sent waits
    /// (a request waiting aside for a key, a provider or a token the app never gave cannot go).
    func endBackgroundTaskIfFlushed() {
        guard let session = background, session.flushed, unsentRequests == 0 else { return }
        endBackgroundTask(.flushed)
    }

    /// Journals what the flush came to, gives the time back and journals why then.
    func endBackgroundTask(_ reason: BackgroundTaskEnd) {
        guard let session = background else { return }
        background = nil
        let failure: String? = switch session.flushFailure {
        case nil: "not confirmed before the task ended"
        case ""?: nil
        case let failure?: failure
        }
        handleBackground(.backgroundFlushFinished(task: session.task, queued: session.queued, left: unsentRequests, failure: failure))
        handleBackground(.backgroundTaskEnded(task: session.task, reason: reason))
        // Past its background time the app may be suspended at any moment: the journal's lock
        // is given back before the time is (a foreground, or a shutdown, needs none of it).
        switch reason {
        case .flushed, .deadline, .expired:
            suspended = true
            giveBackJournal()
        case .foreground, .shutdown:
            break
        }
        session.time.end()
    }

    /// Requests still to send: queued, in a backoff or on the wire, not waiting aside.
    private var unsentRequests: UInt64 {
        var count: UInt64 = 0
        for task in projected.tasks.values where task.aside == nil { count += 1 }
        return count
    }
}
