import SDKCore

/// The background time the engine holds: which task it is in the journal, the time to give
/// back, what its flush has come to, and when the engine gives it back whatever is left.
struct BackgroundSession {
    /// The task's number in the journal (``Fact/backgroundTaskBegan(task:budgetMicroseconds:)``).
    let task: UInt64
    let time: BackgroundTime
    /// How many requests waited when the task began.
    let queued: UInt64
    /// Nil until the journal's flush returned; then its failure, "" when durable.
    var flushFailure: String?
    /// Whether the flush asked for has returned.
    var flushed: Bool { flushFailure != nil }
}
