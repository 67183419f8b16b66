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
    var gate: [GateStep] = []
    var tasks: [Task] = []
    var outcome: CallOutcome?
    var resolved: (sequence: UInt64, time: JournalTime)?
    /// Set when the call's end lay in records lost to damage (`--salvage`): the sequence where
    /// the walk resumed, at a snapshot in which the call was no longer pending.
    var lostBefore: UInt64?
    /// Set when records lost to damage lay between the call's start and its end (`--salvage`):
    /// the sequence where the walk resumed, at a snapshot in which the call was still pending.
    /// What the gate did with it in the lost records is not known; its tasks are brought up to
    /// that snapshot's (``CallAudit/resume(after:)``).
    var historyLostBefore: UInt64?
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

    /// Every project the row names: live at the call, its tasks', the one it took effect on.
    package var projects: [ProjectFingerprint] {
        [liveAtCall, deliveredTo].compactMap { $0 } + tasks.map(\.project)
    }

    /// How a call stands: how it ended, that it has not, or that its end was lost to damage.
    /// The summaries count calls by status in the order of `allCases` (`lost` only where a
    /// walk went on past damage: ``isSaidWhenNone``).
    package enum Status: String, CaseIterable, Sendable {
        case delivered, applied, failed, discarded, pending, lost

        /// The status of a call that ended with `outcome` (nil: not yet, or `lost` when its end
        /// lay in records lost to damage).
        init(_ outcome: CallOutcome?, endLost: Bool = false) {
            switch outcome {
            case .delivered?: self = .delivered
            case .applied?: self = .applied
            case .failed?: self = .failed
            case .discarded?: self = .discarded
            case nil: self = endLost ? .lost : .pending
            }
        }

        /// Whether a summary names this status with a count of 0: every status but `lost`,
        /// which only a walk past damage (`--salvage`) can give.
        package var isSaidWhenNone: Bool {
            switch self {
            case .delivered, .applied, .failed, .discarded, .pending: true
            case .lost: false
            }
        }

        /// The statuses a summary names, given how many calls have each.
        package static func summarized(_ count: (Status) -> Int) -> [Status] {
            allCases.filter { $0.isSaidWhenNone || count($0) > 0 }
        }
    }

    /// The row's ``Status``.
    package var statusCase: Status { Status(outcome, endLost: lostBefore != nil) }

    /// `delivered`, `applied`, `failed`, `discarded`, `pending` or `lost` (``Status``).
    package var status: String { statusCase.rawValue }

    /// The status with its detail: `delivered (200)`, `discarded: purged by switch s1`; then,
    /// for a call whose history crossed a loss, where (``historyLostBefore``).
    var statusText: String {
        guard let historyLostBefore else { return outcomeText }
        return outcomeText + Self.historyLostText(historyLostBefore)
    }

    /// `; part of its history lay in records lost to damage (resumed at N)`.
    private static func historyLostText(_ resumedAt: UInt64) -> String {
        "; part of its history lay in records lost to damage (resumed at \(resumedAt))"
    }

    /// The status with its detail, without the loss its history crossed.
    private var outcomeText: String {
        switch outcome?.parts {
        case .task(let ended, _)?: Describe.taskOutcome(ended)
        case .applied?: "applied"
        case nil:
            if let lostBefore { "lost: its end lay in records lost to damage (resumed at \(lostBefore))" }
            else { "pending" + (tasks.last.map { " (\($0.id) \($0.path) queued)" } ?? "") }
        }
    }

    var gateText: String {
        ScratchBytes.withScratch { bytes in
            writeGateText(to: &bytes)
            return String(decoding: bytes.written, as: UTF8.self)
        }
    }

    package static let header = "   seq  time                         call      name            live at call         gate                        delivered to         status"

    /// A fixed-width line (rows are printed as calls resolve, so widths cannot be measured): a
    /// column shorter than its width is padded with spaces, by characters.
    package var line: String {
        ScratchBytes.withScratch { bytes in
            writeLine(to: &bytes)
            return String(decoding: bytes.written, as: UTF8.self)
        }
    }

    /// Appends ``line``'s bytes without making its strings: `audit` writes one per call.
    package func writeLine(to output: inout ScratchBytes) {
        if let received {
            let digits = JSONValue.decimalDigitCount(received.sequence)
            Self.spaces(6 - digits, &output)
            output.appendDecimal(received.sequence)
        } else {
            Self.spaces(5, &output)
            output.append(UInt8(ascii: "-"))
        }
        Self.spaces(2, &output)
        writeMadeAt(to: &output)
        Self.spaces(2, &output)
        call.writeDescription(to: &output)
        Self.spaces(2, &output)
        Self.padded(name.rawValue, 14, &output)
        Self.spaces(2, &output)
        Self.padded(project: liveAtCall, labels, 19, &output)
        Self.spaces(2, &output)
        let gateStart = output.count
        writeGateText(to: &output)
        Self.spaces(26 - Self.characterCount(UnsafeBufferPointer(rebasing: output.written[gateStart...])), &output)
        Self.spaces(2, &output)
        Self.padded(project: deliveredTo, labels, 19, &output)
        Self.spaces(2, &output)
        if case .delivered(_, let status)? = outcome {
            output.append("delivered (" as StaticString)
            if status < 0 { output.append(UInt8(ascii: "-")) }
            output.appendDecimal(UInt64(status.magnitude))
            output.append(UInt8(ascii: ")"))
            if let historyLostBefore { output.append(Self.historyLostText(historyLostBefore)) }
        } else {
            output.append(statusText)
        }
    }

    /// Appends `madeAt`'s text (``JournalTime/description``: digits, `-`, `:`, `.`, `T`, `Z`,
    /// nothing JSON escapes) without making the string.
    private func writeMadeAt(to output: inout ScratchBytes) {
        var fits = true
        output.appendWriting(atMost: JournalTime.textCount) { text in
            guard let count = madeAt.writeText(to: text) else {
                fits = false
                return 0
            }
            return count
        }
        // A year outside 0…9999: its longer text, made as a string.
        if !fits { output.append(madeAt.description) }
    }

    private static func spaces(_ count: Int, _ output: inout ScratchBytes) {
        guard count > 0 else { return }
        // Copied from a literal (no closure to call): a row pads ten or so columns.
        if count <= blanks.utf8CodeUnitCount {
            output.append(UnsafeRawBufferPointer(start: blanks.utf8Start, count: count))
            return
        }
        output.appendWriting(atMost: count) { text in
            text.update(repeating: UInt8(ascii: " "), count: count)
            return count
        }
    }

    /// Spaces to pad columns with (the widest column is 26 characters).
    private static var blanks: StaticString { "                                " }

    /// `text`, then spaces up to `width` characters.
    private static func padded(_ text: String, _ width: Int, _ output: inout ScratchBytes) {
        output.append(text)
        spaces(width - characterCount(text), &output)
    }

    /// ``ProjectLabels/name(_:)`` of `fingerprint`, then spaces up to `width` characters.
    private static func padded(project fingerprint: ProjectFingerprint?, _ labels: ProjectLabels, _ width: Int,
                               _ output: inout ScratchBytes) {
        guard let fingerprint else { return padded("-", width, &output) }
        var characters = ProjectFingerprint.byteCount * 2
        if let label = labels.label(fingerprint) {
            output.append(label)
            output.append(UInt8(ascii: " "))
            characters += characterCount(label) + 1
        }
        fingerprint.writeHex(to: &output)
        spaces(width - characters, &output)
    }

    /// How many characters `text` has: its bytes when they are ASCII.
    private static func characterCount(_ text: String) -> Int {
        if let count = text.utf8.withContiguousStorageIfAvailable({ characterCount($0) }) { return count }
        return text.count
    }

    /// How many characters the UTF-8 `bytes` make: their count when they are ASCII.
    private static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        isASCII(bytes) ? bytes.count : String(decoding: bytes, as: UTF8.self).count
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time, then the rest: a byte of 0x80 or more is not ASCII.
        var index = 0
        var high: UInt64 = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
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
            ("gate", .array(gateNames.map(JSONValue.string))),
            ("gate_detail", .array(gateDetails.map(JSONValue.string))),
            ("tasks", .array(tasks.map { task in
                .object([("task", .unsigned(task.id.number)), ("project", FactJSON.project(task.project)), ("path", .string(task.path)),
                         ("outcome", .optional(task.outcome, FactJSON.taskOutcome))])
            })),
            ("delivered_to", .optional(deliveredTo, FactJSON.project)),
            ("delivered_to_label", labels.json(deliveredTo)),
            ("status", .string(status)),
            ("outcome", .optional(outcome, FactJSON.outcome)),
            ("resolved_seq", .optional(resolved?.sequence) { .unsigned($0) }),
        ] + (historyLostBefore.map { [("history_lost_before", .unsigned($0))] } ?? []))
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
        Self.key(",\"time\":\"", &output)
        writeMadeAt(to: &output)
        output.append(UInt8(ascii: "\""))
        Self.key(",\"live_at_call\":", &output)
        Self.project(liveAtCall, &output)
        Self.key(",\"live_at_call_label\":", &output)
        Self.string(labels.label(liveAtCall), &output)
        Self.key(",\"gate\":[", &output)
        for (index, step) in gate.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeString(step.name, to: &output)
        }
        Self.key("],\"gate_detail\":", &output)
        writeGateDetailsJSON(to: &output)
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
        if let historyLostBefore {
            Self.key(",\"history_lost_before\":", &output)
            output.appendDecimal(historyLostBefore)
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func key(_ text: StaticString, _ output: inout ScratchBytes) {
        output.append(text)
    }

    private static func string(_ text: String?, _ output: inout ScratchBytes) {
        if let text { JSONValue.writeString(text, to: &output) } else { key("null", &output) }
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
}
