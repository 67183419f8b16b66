import Journal
import SDKCore

/// A stretch during which the journal could not record: the engine keeps deciding in memory,
/// counts what it could not record, and retries with backoff until a new segment opens.
///
/// What the gap that ends it counts (docs/RELIABILITY.md, "A journal that fails"): every fact
/// from the first one that is not in the journal reopened after the failure. Those are the
/// records the failed writer had numbered (staged, or written and then lost) beyond what the
/// reopened journal holds, snapshots aside, then every fact decided while no writer recorded.
package struct JournalOutage: Sendable {
    /// The write error that began it.
    package var reason: String
    /// When the engine heard the journal failed.
    package var since: JournalTime
    /// Facts decided since then that no writer numbered.
    package var lostFacts: UInt64 = 0
    /// When the first of those was decided.
    var firstUnrecorded: JournalTime?
    /// The last sequence number a writer of this journal gave out: the segment that ends the
    /// outage begins past it, so no number goes to two records.
    var numberedThrough: UInt64
    /// What the journal lost of the records its writer had numbered, once a reopened journal
    /// said which it holds.
    var lostRecords: LostRecords?
    /// The wait before the next attempt to record again; it doubles up to ``maximumRetryDelay``.
    var retryDelayMilliseconds: Int64 = Self.firstRetryDelay
    /// Whether an attempt is scheduled.
    var retryScheduled = false

    static let firstRetryDelay: Int64 = 1_000
    static let maximumRetryDelay: Int64 = 60_000

    /// The records the failed writer numbered and the reopened journal does not hold.
    struct LostRecords: Sendable {
        /// The last record the reopened journal holds (0: none).
        var keptThrough: UInt64
        /// Facts among the lost records (snapshots are not facts).
        var facts: UInt64
        /// When the first lost fact was decided (nil: no fact lost, or the writer no longer knew).
        var firstTime: JournalTime?

        init(keptThrough: UInt64, handedOut: HandedOutRecords?) {
            self.keptThrough = keptThrough
            facts = handedOut.map { $0.count - UInt64($0.snapshots) } ?? 0
            firstTime = facts > 0 ? handedOut?.firstTime : nil
        }
    }

    init(reason: String, since: JournalTime, numberedThrough: UInt64) {
        self.reason = reason
        self.since = since
        self.numberedThrough = numberedThrough
    }

    /// Counts `count` facts decided at `time` that no writer numbered.
    mutating func countUnrecorded(_ count: Int, at time: JournalTime) {
        guard count > 0 else { return }
        if firstUnrecorded == nil { firstUnrecorded = time }
        lostFacts &+= UInt64(count)
    }

    /// The fact that ends the outage at `time`: every fact from the first one lost. Its start
    /// is the first lost fact's time: a numbered record's, else the first fact decided while
    /// no writer recorded, else (nothing was lost) when the journal failed.
    func gap(to time: JournalTime) -> JournalGap {
        let lost = lostRecords ?? LostRecords(keptThrough: numberedThrough, handedOut: nil)
        let from = lost.facts > 0 ? (lost.firstTime ?? since) : (firstUnrecorded ?? since)
        return JournalGap(lostFacts: lost.facts &+ lostFacts, from: from, to: time, reason: reason,
                          firstLostSequence: lost.keptThrough &+ 1)
    }

    /// What a flush or a durability wait reports while the outage lasts.
    package var description: String {
        "the journal has not recorded \(lostFacts) fact(s) since \(since) (\(reason)); recording resumes when a write succeeds"
    }
}
