import Journal
import SDK

/// The calls a report page folds into buckets without looking at them one by one (``MarkBuckets``),
/// as the pass lets them go: of each, only what a bucket counts (when it was made, where it was
/// received, the project it ended on and its status), 24 bytes in a temporary file
/// (``SpilledValues``), so the pass's memory does not grow with the journal's calls.
///
/// Not thread-safe: filled by one pass, then read by the page made from it.
final class FoldedCalls {
    /// One call as a bucket counts it; `receiver` and `status` index the tables below.
    private struct Entry {
        var madeAt: Int64
        var sequence: UInt64
        var receiver: UInt32
        var status: UInt32
    }

    private let entries = SpilledValues<Entry>(name: "report-calls")
    private var receivers: [ProjectFingerprint?] = []
    private var receiverIndex: [ProjectFingerprint?: UInt32] = [:]
    private var statuses: [String] = []
    private var statusIndex: [String: UInt32] = [:]

    /// How many calls were folded.
    var count: Int { entries.count }

    /// Folds the call of `row`.
    func append(_ row: AuditRow) throws {
        let receiver = Timeline.receiver(of: row)
        let receiverNumber = receiverIndex[receiver] ?? {
            receivers.append(receiver)
            receiverIndex[receiver] = UInt32(receivers.count - 1)
            return UInt32(receivers.count - 1)
        }()
        let status = row.status
        let statusNumber = statusIndex[status] ?? {
            statuses.append(status)
            statusIndex[status] = UInt32(statuses.count - 1)
            return UInt32(statuses.count - 1)
        }()
        try entries.append(Entry(madeAt: row.madeAt.microsecondsSince1970, sequence: row.received?.sequence ?? 0,
                                 receiver: receiverNumber, status: statusNumber))
    }

    /// Hands out every call folded, in the order they were folded: when it was made, the sequence
    /// it was received at (0 when before the retained journal), the project it ended on (nil when
    /// not delivered, ``Timeline/receiver(of:)``) and its status.
    func forEach(_ body: (_ madeAt: JournalTime, _ sequence: UInt64, _ receiver: ProjectFingerprint?, _ status: String) throws -> Void) throws {
        try entries.forEach { entry in
            try body(JournalTime(microsecondsSince1970: entry.madeAt), entry.sequence, receivers[Int(entry.receiver)], statuses[Int(entry.status)])
        }
    }
}
