import SDKCore

extension EngagementSDK {
    /// Tells the SDK the network is reachable again: call it from the app's reachability
    /// monitor (on Apple platforms, an `NWPathMonitor` whose path became `.satisfied`).
    ///
    /// A request that got no response (offline, refused, dropped, timed out) is never used up: its
    /// project's queue waits, trying again with a backoff that doubles up to
    /// `RetryRules.maxDelayMilliseconds` (five minutes by default), in call order. This notice makes
    /// each waiting project send its next request at once instead of at the end of its backoff.
    /// Calling it when nothing waits does nothing; calling it while still offline costs one
    /// attempt per waiting project.
    ///
    /// Returns at once, in order with the calls made before it on this thread; journaled (`replay`
    /// shows when the app said so). Ignored after ``shutdown()``.
    public func networkBecameReachable() {
        mailboxPost(.networkReachable)
    }
}
