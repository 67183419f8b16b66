/// Why the SDK gave a background task back to the system (the journal's `backgroundTaskEnded`).
/// The raw values are the journal's: never rename one.
public enum BackgroundTaskEnd: String, Sendable, Hashable, CaseIterable {
    /// The journal's flush returned (durable or not: `backgroundFlushFinished` says) and nothing
    /// that could be sent was left waiting.
    case flushed
    /// The task's budget was about to run out (a margin before it ends): what was left waits for
    /// the next launch or foreground.
    case deadline
    /// The system took the time back first (the journal's `backgroundTaskExpired`).
    case expired
    /// The app came back to the foreground first.
    case foreground
    /// The SDK shut down first.
    case shutdown
}
