import SDKCore

extension EngagementSDK {
    /// How long before a background task's budget runs out the SDK gives the time back whatever
    /// is left to send (5 s, or a fifth of a shorter budget): the system kills an app that holds
    /// a background task past its time.
    public static let backgroundMarginMicroseconds: Int64 = 5_000_000

    /// Tells the SDK the app went to the background, with the time the system granted to finish
    /// work (nil: none). On iOS, `UIKitLifecycleObserver` calls it from
    /// `didEnterBackgroundNotification`; an app or platform that tracks its phases itself calls it.
    ///
    /// The SDK then makes its journal durable and sends what waits (requests in a backoff or
    /// waiting for the network go at once, as after ``networkBecameReachable()``), and gives the
    /// time back (`BackgroundTime`'s `end`) when both are done, a margin before the budget runs
    /// out (``backgroundMarginMicroseconds``), when ``applicationWillEnterForeground()`` comes
    /// first, or when the system takes it back (``BackgroundTime/expire()``). Each of these is
    /// journaled: `backgroundTaskBegan`, `backgroundFlushFinished` (durable or why not, how many
    /// requests were left), `backgroundTaskExpired`, `backgroundTaskEnded` (and why then), which
    /// `replay timeline`, `diagnose` and the report show.
    ///
    /// Returns at once, in order with the calls made before it on this thread; any thread. While
    /// the SDK holds background time, a second grant is given back at once. After ``shutdown()``
    /// the time is given back at once and nothing is journaled.
    public func applicationDidEnterBackground(_ time: BackgroundTime?) {
        let time = time ?? BackgroundTime(budget: .zero, end: {})
        if !mailboxPost(stimulus: .enteredBackground(time)) { time.end() }
    }

    /// Tells the SDK the app is coming back to the foreground: background time it still holds is
    /// given back (journaled, `backgroundTaskEnded` for `foreground`). Returns at once; any
    /// thread; does nothing when the SDK holds no background time or after ``shutdown()``.
    public func applicationWillEnterForeground() {
        mailboxPost(stimulus: .enteredForeground)
    }
}
