import Foundation
import Journal
import SDK

/// What a reconciliation hands out: calls as the journal tells them, receipts as kept, rows
/// with their verdicts, holes, and what was read and found wrong.
extension JournalReconciler {
    /// One call a journal sent or queued, as the journal tells it.
    package struct JournalCall: Sendable {
        /// Which journal (its index in ``journals``).
        package var journal: Int
        /// The public call; nil for a request of the SDK's own (a switch's disableDevice).
        package var call: CallID?
        package var callID: WireCallID
        /// The task that carried it last.
        package var task: TaskID
        /// The project the journal sent it to.
        package var project: ProjectFingerprint
        /// The task's path when it was queued (`events/track` also for an event that left in a bulk).
        package var endpoint: String
        package var queuedAt: JournalTime
        /// How its task ended for it; nil while pending at the journal's end.
        package var outcome: TaskOutcome?
        package var outcomeAt: JournalTime?
        /// Whether an attempt left (a `taskDispatched`).
        package var dispatched = false
        /// A gap (or the journal's end of retention) lies after it was queued while it is still
        /// pending: its outcome may be in the gap, so it is not judged.
        package var inGap: String?
        /// What the projects said of it.
        package var receipts: [Receipt] = []
    }


    /// One receipt-log line, as kept for a call: what the verdict and its rendering need, in 32
    /// bytes (a fleet's receipts are many).
    package struct Receipt: Sendable {
        package var project: ProjectFingerprint
        package var receivedAt: JournalTime
        private var storedStatus: Int16
        private var storedFile: UInt32
        private var storedLine: UInt32
        package var duplicate: Bool

        package init(project: ProjectFingerprint, status: Int?, duplicate: Bool, receivedAt: JournalTime, file: Int, line: Int) {
            self.project = project
            self.receivedAt = receivedAt
            storedStatus = Int16(clamping: status ?? 0)
            storedFile = UInt32(clamping: file)
            storedLine = UInt32(clamping: line)
            self.duplicate = duplicate
        }

        /// The HTTP status answered; nil when none was.
        package var status: Int? { storedStatus == 0 ? nil : Int(storedStatus) }
        /// Which receipt log (its index in ``receiptFiles``) and line (from 1; at most 2^32 - 1).
        package var file: Int { Int(storedFile) }
        package var line: Int { Int(storedLine) }
    }

    /// A verdict on one call, or on one receipt no journal call explains.
    package struct Row: Sendable {
        package var verdict: ReconcileVerdict
        /// The journal's call; nil for an `unjournaled` receipt.
        package var call: JournalCall?
        /// The receipts (for `unjournaled`, the one receipt).
        package var receipts: [Receipt]
        /// For `unjournaled`: the journal whose stream the receipt names, and its endpoint.
        package var journal: Int?
        package var endpoint: String?
        package var receiptCallID: WireCallID?

        /// The project the row is counted under: the journal's, else the receiving one.
        package var project: ProjectFingerprint? { call?.project ?? receipts.first?.project }
    }

    /// A range of a journal with no records to judge by: a gap, an erasure, or what retention
    /// dropped before its first record. Receipts in it that no call explains are not judged.
    package struct Hole: Sendable {
        package var journal: Int
        package var from: JournalTime?
        package var to: JournalTime
        package var what: String
    }

    /// One journal read.
    package struct JournalInfo: Sendable {
        package var path: String
        package var stream: UUID?
        package var records = 0
    }

    /// One receipt log streamed, and what its lines were.
    package struct ReceiptFile: Sendable {
        package var path: String
        package var lines = 0
        package var malformed = 0
        /// Lines of streams no journal given is (another install's calls).
        package var foreign = 0
        package var matched = 0
        package var unjournaled = 0
        package var notJudged = 0
    }

    /// A piece of bad input, named where it is.
    package struct Problem: Sendable, CustomStringConvertible {
        package var place: String
        package var message: String
        package var description: String { "\(place): \(message)" }
    }
}
