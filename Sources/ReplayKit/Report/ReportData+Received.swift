import Journal
import SDK

/// The report's receipt marks (`--received`): what the receipt logs say of each call, drawn on
/// the lane of the project that received it.
extension ReportData {
    /// At most this many receipt marks are embedded: those of calls not `agreed` first, then the
    /// agreed ones of the calls drawn as marks (the rest are counted).
    static let receiptMarkLimit = 6_000

    /// One receipt mark before it becomes JSON. Its text is made only for the marks embedded
    /// (``receiptMarkLimit``): a call's summary is read again from the journal for a long
    /// journal's calls, and a receipt log may dispute every call.
    private struct ReceiptMark {
        var lane: Int
        var t: Int64
        var verdict: ReconcileVerdict?
        /// The call's mark (index into the data's marks), when it is drawn.
        var mark: Int?
        var seq: UInt64?
        /// A call the project should have and has no 2xx receipt of: drawn where the journal
        /// says it was delivered, on the lane of the project the journal names.
        var missing = false
        /// The receipt's time lies outside the journal's span: drawn at its edge.
        var outside = false
        var status: Int?
        var wording: Wording
    }

    /// What a receipt mark's text says.
    private enum Wording {
        /// The `receipt`-th receipt of `entry`, a journal's call or the SDK's own request.
        case receipt(ReceivedCalls.Entry, receipt: Int, of: Subject)
        /// No 2xx receipt of `entry` from the project the journal says it was delivered to.
        case missing(ReceivedCalls.Entry, of: Subject)
        case stray(ReceivedCalls.Stray)
    }

    /// What a receipt log's entry is the receipt of.
    private enum Subject {
        case call(Timeline.Kept)
        case ownRequest
    }

    /// `received`: `marks` (each `{lane, t, verdict, mark, seq, missing, outside, status, text}`;
    /// verdict null when not judged), `totals` per verdict, `not_judged`, `unjournaled`, the
    /// `logs` read, how many `problems` the input had and how many marks were left out.
    static func receivedJSON(_ received: ReceivedCalls, _ timeline: Timeline, split: MarkBuckets,
                             laneOf: [ProjectFingerprint: Int], markLimit: Int = receiptMarkLimit) throws -> JSONValue {
        let span = timeline.last.map { timeline.offset($0.time) } ?? 0
        let undelivered = laneOf.count
        var drawn: [Timeline.Kept: Int] = [:]
        for (position, call) in split.marks.enumerated() { drawn[call] = position }
        var marks: [ReceiptMark] = []
        func placed(_ time: JournalTime) -> (Int64, Bool) {
            let offset = timeline.offset(time)
            return (min(max(0, offset), span), offset < 0 || offset > span)
        }
        func add(_ entry: ReceivedCalls.Entry, of subject: Subject, mark: Int?, seq: UInt64?, fallback: JournalTime?) {
            for (index, receipt) in entry.receipts.enumerated() {
                let (t, outside) = placed(receipt.receivedAt)
                marks.append(ReceiptMark(lane: laneOf[receipt.project] ?? undelivered, t: t, verdict: entry.verdict, mark: mark, seq: seq,
                                         outside: outside, status: receipt.status, wording: .receipt(entry, receipt: index, of: subject)))
            }
            let accepted = entry.receipts.contains { $0.status.map { (200..<300).contains($0) } ?? false }
            if entry.verdict == .lost, !accepted {
                let (t, outside) = placed(entry.outcomeAt ?? fallback ?? timeline.first?.time ?? JournalTime(microsecondsSince1970: 0))
                marks.append(ReceiptMark(lane: laneOf[entry.project] ?? undelivered, t: t, verdict: entry.verdict, mark: mark, seq: seq,
                                         missing: true, outside: outside, wording: .missing(entry, of: subject)))
            }
        }
        for call in split.kept {
            guard let entry = received.calls[timeline.call(of: call)] else { continue }
            let mark = drawn[call]
            if entry.verdict == .agreed, mark == nil { continue }
            add(entry, of: .call(call), mark: mark, seq: timeline.sequence(of: call), fallback: timeline.madeAt(of: call))
        }
        for entry in received.ownRequests {
            add(entry, of: .ownRequest, mark: nil, seq: nil, fallback: nil)
        }
        for stray in received.strays {
            let (t, outside) = placed(stray.receipt.receivedAt)
            marks.append(ReceiptMark(lane: laneOf[stray.receipt.project] ?? undelivered, t: t, verdict: stray.hole == nil ? .unjournaled : nil,
                                     mark: nil, seq: nil, outside: outside, status: stray.receipt.status, wording: .stray(stray)))
        }
        var kept = marks
        if marks.count > markLimit {
            kept = Array(marks.lazy.filter { $0.verdict != .agreed }.prefix(markLimit))
            kept += marks.lazy.filter { $0.verdict == .agreed }.prefix(markLimit - kept.count)
        }
        var summaries: [Timeline.Kept: String] = [:]
        func text(of mark: ReceiptMark) throws -> String {
            func what(_ subject: Subject, _ entry: ReceivedCalls.Entry) throws -> String {
                switch subject {
                case .call(let call):
                    let summary = try summaries[call] ?? ReportData.summary(call, timeline)
                    summaries[call] = summary
                    return "\(summary) (call \(timeline.call(of: call)))"
                case .ownRequest:
                    return "the SDK's own \(entry.endpoint) (\(entry.task))"
                }
            }
            func sentTo(_ entry: ReceivedCalls.Entry) -> String { "sent to \(received.name(entry.project)), journal: \(entry.outcome)" }
            let text: String
            switch mark.wording {
            case .receipt(let entry, let index, let subject):
                let receipt = entry.receipts[index]
                let answer = receipt.status.map { "answered \($0)" } ?? "no answer"
                text = "\(entry.verdict?.rawValue ?? "not judged"): \(try what(subject, entry)) \(sentTo(entry)); received by "
                    + "\(received.name(receipt.project)) at \(receipt.receivedAt), "
                    + "\(answer)\(receipt.duplicate ? ", a re-send it deduped" : "") (\(receipt.place))"
            case .missing(let entry, let subject):
                text = "lost: \(try what(subject, entry)) \(sentTo(entry))\(entry.outcomeAt.map { " at \($0)" } ?? ""); "
                    + "no receipt of it from \(received.name(entry.project))"
            case .stray(let stray):
                let why = stray.hole.map { "not judged, in \($0)" } ?? "unjournaled: no call of this journal has this id"
                text = "\(why): \(stray.endpoint ?? "a call") \(stray.callID.map { "(callId \($0))" } ?? "") received by "
                    + "\(received.name(stray.receipt.project)) at \(stray.receipt.receivedAt), "
                    + "\(stray.receipt.status.map { "answered \($0)" } ?? "no answer") (\(stray.receipt.place))"
            }
            return mark.outside ? text + " (outside the journal's span: drawn at its edge)" : text
        }
        let totals = received.totals
        return .object([
            ("marks", .array(try kept.map { mark in
                .object([("lane", .integer(Int64(mark.lane))), ("t", .integer(mark.t)),
                         ("verdict", .optional(mark.verdict) { .string($0.rawValue) }),
                         ("mark", .optional(mark.mark) { .integer(Int64($0)) }), ("seq", .optional(mark.seq) { .unsigned($0) }),
                         ("missing", .bool(mark.missing)), ("outside", .bool(mark.outside)),
                         ("status", .optional(mark.status) { .integer(Int64($0)) }), ("text", .string(try text(of: mark)))])
            })),
            ("marks_left_out", .integer(Int64(marks.count - kept.count))),
            ("totals", .object(ReconcileVerdict.allCases.map { ($0.rawValue, .integer(Int64(totals[$0] ?? 0))) })),
            ("not_judged", .integer(Int64(received.notJudged))),
            ("logs", .array(received.logs.map(JSONValue.string))),
            ("problems", .array(received.problems.prefix(50).map(JSONValue.string))),
            ("problem_count", .integer(Int64(received.problems.count))),
        ])
    }
}
