import Locking

/// Time the system granted the app to finish work after it left the foreground, handed to
/// ``EngagementSDK/applicationDidEnterBackground(_:)``: on iOS, a `UIApplication` background task
/// (`UIKitLifecycleObserver` makes one), elsewhere whatever the platform grants, or a test's.
///
/// The SDK calls `end` exactly once, on its engine thread, when its flush is done, a margin
/// before `budget` runs out (``EngagementSDK/backgroundMarginMicroseconds``), when the app comes
/// back, at ``EngagementSDK/shutdown()``, or at once when the SDK does not take the time (it
/// already holds some, or it shut down). ``expire()`` is for the system's expiration handler:
/// the SDK journals that the time was taken back and ends it at once.
public final class BackgroundTime: Sendable {
    /// How long the system allows, from when the time was granted (UIKit's
    /// `backgroundTimeRemaining` then). Zero or less: no time was granted.
    public let budget: Duration
    private let endBody: @Sendable () -> Void
    private let state = Locked(State())

    private struct State {
        var ended = false
        var expired = false
        /// Where an expiry goes once the engine took the time (it posts to its mailbox).
        var onExpire: (@Sendable () -> Void)?
    }

    /// Time of `budget`, given back by `end` (called once, on any thread).
    public init(budget: Duration, end: @escaping @Sendable () -> Void) {
        self.budget = budget
        endBody = end
    }

    /// The system is taking the time back (its expiration handler runs): the SDK journals
    /// `backgroundTaskExpired` and ends the time. Returns at once; any thread; once is enough.
    public func expire() {
        let notify = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.ended, !state.expired else { return nil }
            state.expired = true
            return state.onExpire
        }
        notify?()
    }

    /// Whether ``expire()`` was called.
    var isExpired: Bool { state.withLock { $0.expired } }

    /// Gives the time back: calls `end` the first time only.
    func end() {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }
        if first { endBody() }
    }

    /// Routes a later ``expire()`` to `body`; false when it already expired (the caller handles
    /// that at once).
    func onExpire(_ body: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.expired else { return false }
            state.onExpire = body
            return true
        }
    }
}
