import Journal

/// A stretch during which the journal could not record: the engine keeps deciding in memory,
/// counts what it could not record, and retries with backoff until a new segment opens.
package struct JournalOutage: Sendable {
    /// The write error that began it.
    package var reason: String
    /// When the first fact went unrecorded.
    package var since: JournalTime
    /// Facts decided and not recorded so far.
    package var lostFacts: UInt64 = 0
    /// The wait before the next attempt to record again; it doubles up to ``maximumRetryDelay``.
    var retryDelayMilliseconds: Int64 = Self.firstRetryDelay
    /// Whether an attempt is scheduled.
    var retryScheduled = false

    static let firstRetryDelay: Int64 = 1_000
    static let maximumRetryDelay: Int64 = 60_000

    /// What a flush or a durability wait reports while the outage lasts.
    package var description: String {
        "the journal has not recorded \(lostFacts) fact(s) since \(since) (\(reason)); recording resumes when a write succeeds"
    }
}
