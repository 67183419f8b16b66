import Journal
import SDK

/// Which calls a report draws one by one and which it folds into buckets, so a page over a
/// journal of any length stays small and responsive, and never drops a call silently.
///
/// Up to ``markLimit`` calls, every call is a mark. Past it, the calls worth a look on their
/// own (not delivered or applied: failed, discarded, pending; those the gate held; and those
/// `notable` picks, such as calls the receipt logs disagree on) stay
/// marks, up to ``notableLimit`` of them taken evenly across the journal; every other call is
/// counted, per lane and status, in one of ``bucketCount`` equal spans of the journal's time.
struct MarkBuckets {
    struct Bucket {
        var lane: Int
        var slot: Int
        var count = 0
        var firstSequence: UInt64 = .max
        var lastSequence: UInt64 = 0
        var statuses: [String: Int] = [:]

        mutating func add(sequence: UInt64, status: String) {
            count += 1
            firstSequence = min(firstSequence, sequence)
            lastSequence = max(lastSequence, sequence)
            statuses[status, default: 0] += 1
        }
    }

    static let markLimit = 3_000
    static let notableLimit = 2_000
    static let bucketCount = 600

    /// The timeline's kept calls (``Timeline/kept()``), in order.
    private(set) var kept: [Timeline.Kept] = []
    /// The kept calls drawn as marks, in order.
    private(set) var marks: [Timeline.Kept] = []
    /// Buckets with at least one call, by lane then slot.
    private(set) var buckets: [Bucket] = []
    /// How many calls the buckets hold.
    private(set) var folded = 0
    /// The time span of one bucket, in microseconds from the journal's start.
    private(set) var bucketSpan: Int64 = 0

    /// Splits `timeline`'s calls: those it kept (whole, or notable ones of a page's pass), then
    /// those its pass folded already (``PageCalls``, never notable: the pass kept every call
    /// `notable` may pick); `lane` gives the lane index of a call's receiver
    /// (``Timeline/receiver(of:)``), `notable` picks calls worth a mark of their own beside those
    /// the journal alone makes notable. Throws when the folded calls cannot be read back.
    init(_ timeline: Timeline, lane: (ProjectFingerprint?) -> Int, notable: (CallID) -> Bool = { _ in false }) throws {
        kept = timeline.kept()
        guard timeline.callCount > Self.markLimit else {
            marks = kept
            return
        }
        let span = max(1, timeline.last.map { timeline.offset($0.time) } ?? 1)
        bucketSpan = max(1, (span + Int64(Self.bucketCount) - 1) / Int64(Self.bucketCount))
        func isNotable(_ call: Timeline.Kept) -> Bool { timeline.isNotableOnItsOwn(call) || notable(timeline.call(of: call)) }
        let notableCount = kept.reduce(0) { $0 + (isNotable($1) ? 1 : 0) }
        let stride = max(1, (notableCount + Self.notableLimit - 1) / Self.notableLimit)
        var byKey: [Int: Bucket] = [:]
        let width = bucketSpan
        func fold(madeAt: JournalTime, sequence: UInt64, receiver: ProjectFingerprint?, status: String) {
            let lane = lane(receiver)
            let slot = Int(min(Int64(Self.bucketCount - 1), max(0, timeline.offset(madeAt) / width)))
            // In place: a bucket copied out and written back would copy its statuses each time.
            byKey[lane * Self.bucketCount + slot, default: Bucket(lane: lane, slot: slot)].add(sequence: sequence, status: status)
        }
        var notableSeen = 0
        for call in kept {
            if isNotable(call) {
                defer { notableSeen += 1 }
                if notableSeen % stride == 0, marks.count < Self.notableLimit {
                    marks.append(call)
                    continue
                }
            }
            fold(madeAt: timeline.madeAt(of: call), sequence: timeline.sequence(of: call) ?? 0, receiver: timeline.receiver(of: call),
                 status: timeline.status(of: call))
        }
        try timeline.pageCalls?.forEachFolded(fold)
        folded = timeline.callCount - marks.count
        buckets = byKey.keys.sorted().compactMap { byKey[$0] }
    }
}
