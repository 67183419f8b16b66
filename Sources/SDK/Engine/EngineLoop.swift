import Dispatch
import Foundation
import Journal
import Locking
import SDKCore

/// The engine thread: one serial mailbox, drained by one thread, that hands each stimulus to the
/// ``EngineShell`` (which decides, journals and starts effects over a ``LiveEnvironment``),
/// publishes what other threads read, and answers settle waiters and the stop.
///
/// Unchecked Sendable: the loop is built on the thread that creates the SDK and handed to the
/// engine thread when that thread starts (`Thread.start` orders the two); from then on only the
/// engine thread touches its mutable properties and its core. Everything other threads use (the
/// mailbox, the published view, the activity count) is itself Sendable.
final class EngineLoop: @unchecked Sendable { // mutable state touched by the engine thread only
    let configuration: SDKConfiguration
    let mailbox: Mailbox<EngineMessage>
    let activity: ActivityTracker
    let published: Locked<PublishedView>
    let status: StatusBroadcaster
    let core: EngineShell<LiveEnvironment>
    private var settleWaiters: [(id: UInt64?, waiter: @Sendable () -> Void)] = []

    init(configuration: SDKConfiguration, mailbox: Mailbox<EngineMessage>, activity: ActivityTracker,
         published: Locked<PublishedView>, status: StatusBroadcaster, storage: OpenedStorage, health: Locked<StorageStatus>) {
        self.configuration = configuration
        self.mailbox = mailbox
        self.activity = activity
        self.published = published
        self.status = status
        let inbox = EngineInbox(
            post: { mailbox.post(.stimulus($0)) },
            effectBegan: { activity.begin() },
            effectEnded: { if activity.end() { mailbox.post(.wake) } })
        let environment = LiveEnvironment(configuration: configuration, keyring: storage.keyring, reopenRecorder: storage.reopen, health: health)
        core = EngineShell(environment: environment, inbox: inbox, recorder: storage.recorder, restored: storage.restored.state,
                          knownProjects: configuration.knownProjects,
                          sdkVersion: configuration.sdkVersion, retentionAge: configuration.journalRetentionAge)
    }

    /// The thread's body: handle `first` (what ``StorageWait`` held), then messages until stopped.
    func run(startingWith first: [EngineMessage] = []) {
        // One array for every take: each take hands the last one's buffer back to the mailbox.
        var taken = first
        var handedIn = !taken.isEmpty
        while handedIn || mailbox.takeAll(into: &taken) {
            handedIn = false
            for index in taken.indices {
                // Moved out of the array (swapped with a message that holds nothing) instead of
                // copied out of it and released again with the array.
                var message = EngineMessage.wake
                swap(&message, &taken[index])
                switch consume message {
                case .stimulus(let stimulus):
                    // Consumed: handed on as it is, not copied for the core and released here.
                    core.handle(consume stimulus)
                case .barrier(let body):
                    body(view)
                case .wake, .openStorage:
                    // Nothing to do; the files are open.
                    break
                case .settle(let id, let waiter):
                    settleWaiters.append((id, waiter))
                case .forgetSettle(let id):
                    settleWaiters.removeAll { $0.id == id }
                case .stop(let done):
                    stop(leftover: taken[(index + 1)...], done: done)
                    return
                }
            }
            publish()
            // A suspended app's journal is closed between inputs (its lock given back).
            if core.suspended && mailbox.isEmpty { core.giveBackJournal() }
            if mailbox.isEmpty && activity.isIdle { releaseSettleWaiters() }
        }
    }

    /// What engine-thread readers see now.
    private var view: EngineView {
        EngineView(state: core.state, lastSequence: core.lastSequence, idle: mailbox.isEmpty && activity.isIdle,
                   journalFailure: core.outage?.description, settleWaiters: settleWaiters.count)
    }

    /// A small copy for reads made on this thread, and the switch status for the app's UI; the
    /// state itself is never shared, so its collections are mutated in place.
    private func publish() {
        let view = PublishedView(state: core.state)
        published.withLock { $0 = view }
        status.publish(view.switchStatus)
    }

    private func releaseSettleWaiters() {
        guard !settleWaiters.isEmpty else { return }
        let waiters = settleWaiters
        settleWaiters = []
        for (_, waiter) in waiters { waiter() }
    }

    /// The app shut the SDK down: the core resolves every pending completion (journaled) and
    /// closes the journal; whatever was posted after the stop is answered without being processed.
    private func stop(leftover: ArraySlice<EngineMessage>, done: @Sendable () -> Void) {
        core.stop()
        core.environment.finishKeyringWrites()
        publish()
        mailbox.close()
        var messages = Array(leftover)
        while let more = mailbox.takeAll() { messages += more }
        for message in messages {
            switch message {
            case .stimulus(.input(_, .completion(let completion?))), .stimulus(.input(_, .project(_, let completion?))):
                configuration.callbackQueue.async { completion.deliverShutdown() }
            case .barrier(let body):
                body(view)
            case .settle(let id, let waiter):
                settleWaiters.append((id, waiter))
            case .stop(let other):
                other()
            case .stimulus, .wake, .forgetSettle, .openStorage:
                // No caller waits on these: a stimulus without a call's completion, a wake, a
                // settle withdrawn.
                break
            }
        }
        releaseSettleWaiters()
        status.finish()
        done()
    }
}

/// What getters called on the engine thread (from a module's handler) read: the state's public
/// face after the last inputs it handled.
struct PublishedView: Sendable {
    var email: String?
    var userID: String?
    var attribution: AttributionInfo?
    var pushToken: String?
    var live: ProjectFingerprint?
    var inAppMessageIDs: [String]
    var embeddedMessageIDs: [String]
    var switchStatus: SwitchStatus

    init(state: SDKState) {
        email = state.email
        userID = state.userID
        attribution = state.attribution
        pushToken = state.pushToken
        live = state.live?.fingerprint
        inAppMessageIDs = state.inAppMessageIDs
        embeddedMessageIDs = state.embeddedMessageIDs
        switchStatus = SwitchStatus(state)
    }
}
