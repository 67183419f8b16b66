import Journal
import SDK

/// One public call as `replay audit` reports it: made when, on which project, what the gate
/// did, which project its request went to and how it ended.
package struct AuditRow: Sendable {
    struct Task: Sendable {
        var id: TaskID
        var project: ProjectFingerprint
        var path: String
        var outcome: TaskOutcome?
    }

    package var call: CallID
    package var name: PublicCall.Name
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
        case .applied(nil)?, .failed?, .discarded?, nil: tasks.last?.project
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

    /// Appends the bytes of ``json``'s compact serialization without building the value: `audit
    /// --json` writes one row per call, and building each row's tree would be about a tenth of
    /// the command.
    package func writeJSON(to output: inout ScratchBytes) {
        Self.key("{\"call\":", &output)
        FactJSON.writeCallID(call, to: &output)
        Self.key(",\"name\":", &output)
        JSONValue.writeString(name.rawValue, to: &output)
        Self.key(",\"seq\":", &output)
        Self.unsigned(received?.sequence, &output)
        Self.key(",\"time\":", &output)
        JSONValue.writeString(madeAt.description, to: &output)
        Self.key(",\"live_at_call\":", &output)
        Self.project(liveAtCall, &output)
        Self.key(",\"live_at_call_label\":", &output)
        Self.string(labels.label(liveAtCall), &output)
        Self.key(",\"gate\":", &output)
        Self.strings(decisionNames, &output)
        Self.key(",\"gate_detail\":", &output)
        Self.strings(decisions, &output)
        Self.key(",\"tasks\":[", &output)
        for (index, task) in tasks.enumerated() {
            Self.key(index == 0 ? "{\"task\":" : ",{\"task\":", &output)
            output.appendDecimal(task.id.number)
            Self.key(",\"project\":", &output)
            Self.project(task.project, &output)
            Self.key(",\"path\":", &output)
            JSONValue.writeString(task.path, to: &output)
            Self.key(",\"outcome\":", &output)
            Self.object(task.outcome, &output) { outcome, sink in FactJSON.write(outcome, into: &sink) }
            output.append(UInt8(ascii: "}"))
        }
        Self.key("],\"delivered_to\":", &output)
        Self.project(deliveredTo, &output)
        Self.key(",\"delivered_to_label\":", &output)
        Self.string(labels.label(deliveredTo), &output)
        Self.key(",\"status\":", &output)
        JSONValue.writeString(status, to: &output)
        Self.key(",\"outcome\":", &output)
        Self.object(outcome, &output) { outcome, sink in FactJSON.write(outcome, into: &sink) }
        Self.key(",\"resolved_seq\":", &output)
        Self.unsigned(resolved?.sequence, &output)
        output.append(UInt8(ascii: "}"))
    }

    private static func key(_ text: StaticString, _ output: inout ScratchBytes) {
        output.append(text)
    }

    private static func string(_ text: String?, _ output: inout ScratchBytes) {
        if let text { JSONValue.writeString(text, to: &output) } else { key("null", &output) }
    }

    private static func strings(_ texts: [String], _ output: inout ScratchBytes) {
        output.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(text, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    private static func unsigned(_ value: UInt64?, _ output: inout ScratchBytes) {
        if let value { output.appendDecimal(value) } else { key("null", &output) }
    }

    private static func project(_ fingerprint: ProjectFingerprint?, _ output: inout ScratchBytes) {
        guard let fingerprint else { return key("null", &output) }
        output.append(UInt8(ascii: "\""))
        fingerprint.writeHex(to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// `value`'s JSON object, its members written as they come (no tree is built for them), or
    /// null: the same bytes as the object ``FactJSON`` would make of it.
    private static func object<Value>(_ value: Value?, _ output: inout ScratchBytes,
                                      _ members: (Value, inout JSONMemberBytes) -> Void) {
        guard let value else { return key("null", &output) }
        output.append(UInt8(ascii: "{"))
        var sink = JSONMemberBytes(continuing: output, afterMembers: false)
        members(value, &sink)
        output = sink.finish()
        output.append(UInt8(ascii: "}"))
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
