/// Why the SDK gave a background task back to the system (``Fact/backgroundTaskEnded(task:reason:)``).
/// The raw values are the journal's: never rename one.
public enum BackgroundTaskEnd: String, Sendable, Hashable, CaseIterable {
    /// The journal was durable and nothing that could be sent was left waiting.
    case flushed
    /// The task's budget was about to run out (``BackgroundTaskEnd`` comes a margin before it):
    /// what was left waits for the next launch or foreground.
    case deadline
    /// The system took the time back first (``Fact/backgroundTaskExpired(task:)``).
    case expired
    /// The app came back to the foreground first.
    case foreground
    /// The SDK shut down first.
    case shutdown
}
