import SDKCore

extension EngagementSDK {
    /// Tells the SDK the device's protected data became available (the user unlocked it): if the
    /// SDK started in its "storage unavailable" mode (``storageStatus``), it tries to open its
    /// files now. On iOS, `UIKitProtectedDataObserver` calls it from
    /// `protectedDataDidBecomeAvailableNotification`; an app that observes the notification
    /// itself calls it from there.
    ///
    /// Once the files open, the engine starts over the journal's state: the launch's
    /// `engineStarted`, then `storageWasUnavailable` (how long, how many attempts, the last
    /// failure, how many inputs were held and refused), then every held call in the order it
    /// was made, then what came after; delivery resumes. If they still cannot be opened, the
    /// failure is noted in ``storageStatus`` and the retry timer goes on.
    ///
    /// Returns at once, in order with the calls made before it on this thread; any thread. Does
    /// nothing when the files are open, or after ``shutdown()``.
    public func protectedDataDidBecomeAvailable() {
        mailboxPostOpenStorage()
    }

    /// The SDK's files as the app can read them now: whether they are open, what is held in
    /// memory while they are not, the keyring writes that failed. Any thread; never waits for
    /// the engine (a lock held for a copy).
    public var storageStatus: StorageStatus {
        storageHealth.withLock { $0 }
    }
}
