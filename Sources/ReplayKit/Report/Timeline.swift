import Journal
import SDK

/// A journal as a support engineer reads it at a glance: the projects, each switch window with
/// its teardown steps, every public call with the project that received it, the gate and
/// offline-queue depths over time, the `check` violations, and the state at a few chosen
/// moments. Built in one pass by ``TimelineBuilder``; the HTML report (``ReportData``) and the
/// trace export (``TraceExporter``) render it.
package struct Timeline {
    /// One public call: its audit row, a one-line summary of the call, its `callReceived`
    /// record as compact JSON (``FactJSON``; text costs far less memory than the decoded fact;
    /// kept only while the call may still be drawn as a mark, see ``TimelineBuilder``; nil when
    /// it was received before the retained journal) and, for a call the gate held, where it was
    /// queued and replayed.
    package struct Call {
        var row: AuditRow
        var summary: String
        var factJSON: String?
        var held: SwitchReport.HeldCall?

        /// Whether the call is worth a mark of its own in a long journal: the gate held it,
        /// or it was not delivered or applied (failed, discarded, pending).
        static func isNotable(_ row: AuditRow) -> Bool {
            row.gate.contains(where: \.isQueued) || ![.delivered, .applied].contains(row.statusCase)
        }

        /// A call's summary, from its `callReceived` record.
        static func summary(of record: DecodedRecord) -> String {
            guard case .callReceived(let call)? = record.fact else { return "" }
            return Describe.call(call.call)
        }

        /// A call's `callReceived` record as JSON text.
        static func factJSON(of record: DecodedRecord) -> String {
            FactJSON.object(record).serialized()
        }
    }

    /// Which calls a pass keeps whole.
    package enum Keeping {
        /// Every call (the trace export draws each).
        case every
        /// What a report page draws (``MarkBuckets``): every call whole up to
        /// ``MarkBuckets/markLimit`` of them; past it, ``pageCalls`` takes the others: the
        /// drawing of those that may be drawn one by one (notable on their own, ``Call/isNotable(_:)``,
        /// held by the gate, or picked by `notable`), only what a bucket counts of the rest. A
        /// page made from the timeline must pick with the same `notable` (``page(_:)``).
        case page(notable: (CallID) -> Bool)

        /// What the report page with `received` (`--received`) draws: a call the receipt logs
        /// do not agree on is worth a mark of its own (``ReceivedCalls/marksOnItsOwn(_:)``).
        package static func page(_ received: ReceivedCalls?) -> Keeping {
            guard let received else { return .page { _ in false } }
            return .page { received.marksOnItsOwn($0) }
        }
    }

    package var records = 0
    var first: (sequence: UInt64, time: JournalTime)?
    var last: (sequence: UInt64, time: JournalTime)?
    /// Every project the journal names, in order of first appearance.
    package var projects: [ProjectFingerprint] = []
    var labels = ProjectLabels()
    /// Every switch request (absorbed and noop ones too), in switch order.
    package var switches: [SwitchReport] = []
    /// The public calls kept whole, in the order they were received: every call when built
    /// keeping ``Keeping/every``; for a page, those it may draw one by one (``Keeping/page(notable:)``).
    package var calls: [Call] = []
    /// The calls a page's pass let go whole (``Keeping/page(notable:)``): those it folds, and
    /// the notable ones it may draw (read alike with the whole ones through ``kept()``).
    var pageCalls: PageCalls?
    /// How many public calls the journal has: those kept whole and those let go.
    package var callCount: Int { calls.count + (pageCalls?.count ?? 0) }
    var gateDepth = Counter()
    var queueDepth = Counter()
    var violations: [Violation] = []
    /// Each jump of the device's wall clock (``Fact/clockJumped(wall:jumpMicroseconds:)``): where,
    /// by how much, and what it read.
    var clockJumps: [SwitchReport.ClockJump] = []
    /// The background tasks' and the storage's facts (``Describe/background(_:)``,
    /// ``Describe/storage(_:)``): the kind's name, the text, where.
    var background: [(kind: String, text: String, at: SwitchReport.Mark)] = []
    package var violationCount = 0
    /// `StateDocument`s after the chosen sequences (see ``StateSampler``).
    package var states: [UInt64: JSONValue] = [:]
    /// How many moments wanted a state document the byte budget no longer allowed.
    var statesSkipped = 0
    package var unreadable = 0
    /// What the pass went on past, lost to damage (a reader that goes on past it), in words
    /// (``StreamProblems/wentOnPast(_:)``).
    package var lostToDamage: [String] = []
    /// Every ``indexStride``-th record's (sequence, time), so a page can place any sequence
    /// number on the time axis.
    var index: [(sequence: UInt64, time: JournalTime)] = []
    static let indexStride = 256

    /// Microseconds from the journal's first record to `time`.
    func offset(_ time: JournalTime) -> Int64 {
        guard let first else { return 0 }
        let (difference, overflow) = time.microsecondsSince1970.subtractingReportingOverflow(first.time.microsecondsSince1970)
        return overflow ? 0 : difference
    }

    /// The project a call ended on, or nil when it was not delivered (failed, discarded, pending
    /// with no task).
    static func receiver(of row: AuditRow) -> ProjectFingerprint? {
        switch row.outcome {
        case .failed?, .discarded?: nil
        case .delivered?, .applied?, nil: row.deliveredTo
        }
    }
}
