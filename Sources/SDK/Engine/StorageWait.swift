import Dispatch
import Locking
import SDKCore

/// The engine thread while the SDK's files cannot be opened (the "storage unavailable" mode):
/// before any ``EngineLoop`` or ``EngineShell`` exists, so nothing is decided, sent or made (no
/// identity, no instance, no key) under a state the journal could not give.
///
/// Inputs (public calls, notifications) are held in memory in the order they arrived, bounded
/// by ``SDKConfiguration/storageHoldCapacity`` inputs and ``SDKConfiguration/storageHoldByteCapacity``
/// bytes (a call counted by its record's payload); an input past either bound is refused at
/// once (its completion hears `CallFailure.rejected(_:)`), counted, and the count journaled once
/// the files open. Opening is tried again when the app says protected data became available
/// (``EngagementSDK/protectedDataDidBecomeAvailable()``) and on a timer on the configured
/// clock's monotonic time (``SDKConfiguration/storageRetryInterval``). Once the files open, the
/// engine starts over the restored state: `engineStarted`, then `storageWasUnavailable`, then
/// every held input in order, then what came after.
///
/// Engine thread only (made on the SDK's initializing thread and handed to the engine thread
/// when it starts).
final class StorageWait: @unchecked Sendable { // mutable state touched by the engine thread only, after `Thread.start`
    private let configuration: SDKConfiguration
    private let mailbox: Mailbox<EngineMessage>
    private let published: Locked<PublishedView>
    private let status: StatusBroadcaster
    private let health: Locked<StorageStatus>
    private let opener: StorageOpener
    /// The launch's `engineStarted`, for a journal that held facts or not.
    private let makeStart: @Sendable (_ restored: Bool) -> Fact
    /// When the first opening failed (monotonic µs).
    private let since: Int64
    private var reason: String
    private var attempts: UInt64 = 1
    private var held: [EngineMessage] = []
    private var heldBytes = 0
    private var refused: UInt64 = 0

    init(configuration: SDKConfiguration, mailbox: Mailbox<EngineMessage>, published: Locked<PublishedView>, status: StatusBroadcaster,
         health: Locked<StorageStatus>, opener: StorageOpener, failure: String, makeStart: @escaping @Sendable (Bool) -> Fact) {
        self.configuration = configuration
        self.mailbox = mailbox
        self.published = published
        self.status = status
        self.health = health
        self.opener = opener
        self.makeStart = makeStart
        reason = failure
        since = configuration.clock.read().monotonicMicroseconds
        health.withLock {
            $0.isAvailable = false
            $0.unavailableReason = failure
            $0.failedOpenings = 1
        }
    }

    /// Arms the first retry on the clock (from any thread, once).
    func armRetry() {
        let mailbox = mailbox
        let due = configuration.clock.read().monotonicMicroseconds &+ configuration.storageRetryInterval.wholeMicroseconds
        configuration.clock.schedule(atMonotonicMicroseconds: due) { mailbox.post(.openStorage(byTimer: true)) }
    }

    /// Holds inputs until the files open, then returns the engine loop over them and the
    /// messages it is to handle first; nil when the SDK was shut down first (everything held
    /// answered as a shutdown).
    func run() -> (loop: EngineLoop, first: [EngineMessage])? {
        var taken: [EngineMessage] = []
        while mailbox.takeAll(into: &taken) {
            for index in taken.indices {
                var message = EngineMessage.wake
                swap(&message, &taken[index])
                switch consume message {
                case .stimulus(let stimulus):
                    take(stimulus)
                case .barrier(let body):
                    body(view)
                case .settle(_, let waiter):
                    // Nothing is in flight: what is held waits for the files, not for an effect.
                    waiter()
                case .wake, .forgetSettle:
                    break
                case .openStorage(let byTimer):
                    guard let loop = open(byTimer: byTimer) else { break }
                    var first = held
                    held = []
                    first.append(contentsOf: taken[(index + 1)...])
                    return (loop, first)
                case .stop(let done):
                    stop(leftover: taken[(index + 1)...], done: done)
                    return nil
                }
            }
        }
        return nil
    }

    /// What readers see while nothing is restored: an empty state.
    private var view: EngineView {
        EngineView(state: SDKState(), lastSequence: 0, idle: true, journalFailure: "storage unavailable: \(reason)", settleWaiters: 0)
    }

    private func take(_ stimulus: consuming EngineStimulus) {
        switch consume stimulus {
        case .input(let fact, let attachment):
            hold(fact, attachment)
        case .enteredBackground(let time):
            // Nothing to make durable or send: the time goes back at once.
            time.end()
        case .keyringWriteFailed, .enteredForeground, .timerDue, .tokenIssued, .moduleHookReturned, .landingCallbackReturned,
             .retryJournal, .journalFailed, .backgroundJournalFlushed, .backgroundDeadline, .backgroundTimeExpired:
            // Effects' answers and the journal's: none was started while nothing runs.
            break
        }
    }

    /// Holds `fact` with its attachment, or refuses it when the hold is full.
    private func hold(_ fact: consuming Fact, _ attachment: consuming EngineAttachment) {
        let bytes = FactCodec.payload(of: fact).count
        guard held.count < configuration.storageHoldCapacity, heldBytes + bytes <= configuration.storageHoldByteCapacity else {
            refused += 1
            health.withLock { $0.refusedInputs += 1 }
            let reason = "storage unavailable: the hold of \(configuration.storageHoldCapacity) inputs, "
                + "\(configuration.storageHoldByteCapacity) bytes (storageHoldCapacity, storageHoldByteCapacity) is full"
            let completion: CallCompletion? = switch attachment {
            case .completion(let completion): completion
            case .project(_, let completion): completion
            case .none, .token, .refusedToken: nil
            }
            if let completion { configuration.callbackQueue.async { completion.deliverRefused(reason) } }
            return
        }
        heldBytes += bytes
        held.append(.input(fact, attachment))
        health.withLock { $0.heldInputs += 1 }
    }

    /// Tries to open the files; on success, the engine loop over them (the messages that start
    /// it put first in ``held``).
    private func open(byTimer: Bool) -> EngineLoop? {
        let opened: OpenedStorage
        do {
            opened = try opener.open()
        } catch {
            attempts += 1
            reason = "\(error)"
            health.withLock {
                $0.failedOpenings += 1
                $0.unavailableReason = "\(error)"
            }
            // One timer at a time: the protected-data call tries at once and leaves it be.
            if byTimer { armRetry() }
            return nil
        }
        let waited = max(0, configuration.clock.read().monotonicMicroseconds &- since)
        let unavailable = Fact.storageWasUnavailable(reason: reason, waitedMicroseconds: waited, attempts: attempts,
                                                     held: UInt64(held.count), refused: refused)
        held.insert(contentsOf: [.input(makeStart(opened.restored.hadFacts), .none), .input(unavailable, .none)], at: 0)
        let loop = EngineLoop(configuration: configuration, mailbox: mailbox, activity: ActivityTracker(), published: published,
                              status: status, storage: opened, health: health)
        health.withLock {
            $0.isAvailable = true
            $0.unavailableReason = nil
        }
        return loop
    }

    /// The app shut the SDK down before the files opened: nothing can be journaled; every held
    /// call and every one posted after the stop hears of the shutdown.
    private func stop(leftover: ArraySlice<EngineMessage>, done: @Sendable () -> Void) {
        mailbox.close()
        var messages = held + Array(leftover)
        held = []
        while let more = mailbox.takeAll() { messages += more }
        var waiters: [@Sendable () -> Void] = []
        for message in messages {
            switch message {
            case .stimulus(.input(_, .completion(let completion?))), .stimulus(.input(_, .project(_, let completion?))):
                configuration.callbackQueue.async { completion.deliverShutdown() }
            case .stimulus(.enteredBackground(let time)):
                time.end()
            case .barrier(let body):
                body(view)
            case .settle(_, let waiter):
                waiters.append(waiter)
            case .stop(let other):
                other()
            case .stimulus, .wake, .forgetSettle, .openStorage:
                // No caller waits on these.
                break
            }
        }
        for waiter in waiters { waiter() }
        status.finish()
        done()
    }
}
