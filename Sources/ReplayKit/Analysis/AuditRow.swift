import Journal
import SDK

/// One public call as `replay audit` reports it: made when, on which project, what the gate
/// did, which project its request went to and how it ended.
package struct AuditRow {
    struct Task {
        var id: TaskID
        var project: ProjectFingerprint
        var path: String
        var outcome: TaskOutcome?
    }

    var call: CallID
    package var name: CallName
    /// Where the call was received; nil when it was received before the retained journal.
    var received: (sequence: UInt64, time: JournalTime)?
    var madeAt: JournalTime
    package var liveAtCall: ProjectFingerprint?
    /// What the gate (or the switch router, for control calls) did with it, in order.
    var decisions: [String] = []
    var decisionNames: [String] = []
    var tasks: [Task] = []
    var outcome: CallOutcome?
    var resolved: (sequence: UInt64, time: JournalTime)?
    /// The projects' labels as the journal gave them, for the renderings.
    package var labels = ProjectLabels()

    /// The project the call took effect on: its outcome's, else the last task's.
    package var deliveredTo: ProjectFingerprint? {
        switch outcome {
        case .delivered(let project, _)?: project
        case .applied(let project?)?: project
        default: tasks.last?.project
        }
    }

    /// `delivered`, `applied`, `failed`, `discarded` or `pending`.
    package var status: String {
        switch outcome {
        case .delivered?: "delivered"
        case .applied?: "applied"
        case .failed?: "failed"
        case .discarded?: "discarded"
        case nil: "pending"
        }
    }

    /// The status with its detail: `delivered (200)`, `discarded: purged by switch s1`.
    var statusText: String {
        switch outcome {
        case .delivered(_, let status)?: "delivered (\(status))"
        case .applied?: "applied"
        case .failed(let failure)?: "failed: " + Describe.failure(failure)
        case .discarded(let reason)?: "discarded: " + Describe.discard(reason)
        case nil: "pending" + (tasks.last.map { " (\($0.id) \($0.path) queued)" } ?? "")
        }
    }

    var gateText: String {
        if decisions.isEmpty { return name.switchBehavior == .control ? "control" : "-" }
        return decisions.joined(separator: ", ")
    }

    package static let header = "   seq  time                         call      name            live at call         gate                        delivered to         status"

    /// A fixed-width line (rows are printed as calls resolve, so widths cannot be measured).
    package var line: String {
        let sequence = received.map { String($0.sequence) } ?? "-"
        return Self.pad(sequence, 6, right: true) + "  " + Self.pad(madeAt.description, 27) + "  " + Self.pad(call.description, 8)
            + "  " + Self.pad(name.rawValue, 14) + "  " + Self.pad(labels.name(liveAtCall), 19) + "  " + Self.pad(gateText, 26)
            + "  " + Self.pad(labels.name(deliveredTo), 19) + "  " + statusText
    }

    /// The row as one JSON object; projects are fingerprints, each with a `*_label` beside it.
    package var json: JSONValue {
        .object([
            ("call", FactJSON.callID(call)),
            ("name", .string(name.rawValue)),
            ("seq", .optional(received?.sequence) { .unsigned($0) }),
            ("time", .string(madeAt.description)),
            ("live_at_call", .optional(liveAtCall, FactJSON.project)),
            ("live_at_call_label", labels.json(liveAtCall)),
            ("gate", .array(decisionNames.map(JSONValue.string))),
            ("gate_detail", .array(decisions.map(JSONValue.string))),
            ("tasks", .array(tasks.map { task in
                .object([("task", .unsigned(task.id.number)), ("project", FactJSON.project(task.project)), ("path", .string(task.path)),
                         ("outcome", .optional(task.outcome, FactJSON.taskOutcome))])
            })),
            ("delivered_to", .optional(deliveredTo, FactJSON.project)),
            ("delivered_to_label", labels.json(deliveredTo)),
            ("status", .string(status)),
            ("outcome", .optional(outcome, FactJSON.outcome)),
            ("resolved_seq", .optional(resolved?.sequence) { .unsigned($0) }),
        ])
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
