import Journal
import SDK

extension SwitchReport {
    /// The report as aligned text, a block per switch.
    package var lines: [String] {
        var lines: [String] = []
        let destination = Describe.project(project)
        switch routing {
        case .absorbed(let into):
            lines.append("switch \(id): to \(destination), absorbed into \(into) (a repeated request: no teardown of its own)")
        case .moved(let entry):
            lines.append("switch \(id): to \(destination), joined \(entry), moved to the tail of the queue (no teardown of its own)")
        case .noop:
            lines.append("switch \(id): to \(destination), noop (the SDK was already there with nothing running)")
        case .started, .enqueued, .initialization:
            lines.append("switch \(id): \(labels.name(from ?? liveAtRequest)) -> \(destination)"
                         + (result.map { "  " + Describe.result($0) } ?? "  (not landed)"))
        }
        var table = Table([.left, .left])
        table.add(["  requested", "\(requested.text) by call \(call): \(Describe.routing(routing))"])
        for (absorbedID, absorbedCall, at) in absorbed {
            table.add(["  absorbed", "\(absorbedID) (call \(absorbedCall), \(at.text)): its callback fires when this one lands"])
        }
        if let carrierLanded {
            table.add(["  delivered", "when \(carrierIDText) landed (\(carrierLanded.text))" + (result.map { ": " + Describe.result($0) } ?? "")])
        }
        if let started { table.add(["  started", started.text]) }
        if let cancelled { table.add(["  cancelled", "\(cancelled.mark.text): \(cancelled.reason); its callers heard notPerformed"]) }
        for line in table.lines() { lines.append(line) }
        if !steps.isEmpty {
            lines.append("  steps")
            var stepTable = Table([.left, .left, .right, .left])
            for step in steps {
                let outcome = step.outcome.map(Describe.stepOutcome) ?? "UNFINISHED"
                let duration = step.elapsedMicroseconds.map { Format.duration(microseconds: $0) } ?? "-"
                let span = "seq \(step.began.sequence)" + (step.finished.map { "..\($0.sequence)" } ?? "..")
                stepTable.add(["    " + step.step.rawValue, outcome, duration, span])
            }
            lines += stepTable.lines()
        }
        var details = Table([.left, .left])
        if let verdict = durabilityVerdict {
            details.add(["  disable", verdict])
        } else if runsItself, steps.contains(where: { $0.step == .disablePush }) {
            details.add(["  disable", "no durability wait (nothing to disable)"])
        }
        for (index, call) in held.enumerated() {
            let replay = call.replayed.map { "replayed on \(labels.name(call.replayedOn)) at seq \($0.sequence)" }
                ?? call.dropped.map { "let go at shutdown (seq \($0.sequence))" } ?? "NEVER REPLAYED"
            details.add([index == 0 ? "  held calls" : "", "\(call.call) \(call.name), queued #\(call.position) at seq \(call.queued.sequence), \(replay)"])
        }
        if held.isEmpty && runsItself && started != nil { details.add(["  held calls", "none"]) }
        for (index, call) in inline.enumerated() {
            details.add([index == 0 ? "  inline calls" : "", "\(call.call) \(call.name) on \(labels.name(call.project)) at seq \(call.at.sequence)"])
        }
        for (index, jump) in clockJumps.enumerated() {
            details.add([index == 0 ? "  clock jumps" : "", "the device's clock jumped \(Describe.clockJump(microseconds: jump.jumpMicroseconds)) "
                + "at seq \(jump.at.sequence) (it read \(jump.wall)); the steps' bounds run on the journal's time, which did not"])
        }
        for (index, note) in background.enumerated() {
            details.add([index == 0 ? "  background" : "", "seq \(note.at.sequence): \(note.text)"])
        }
        for (index, note) in storage.enumerated() {
            details.add([index == 0 ? "  storage" : "", "seq \(note.at.sequence): \(note.text)"])
        }
        if let landed {
            let why = reasons.isEmpty ? "" : " because: " + reasons.joined(separator: "; ")
            details.add(["  landed", "\(landed.text) on \(labels.name(landedOn))" + (result.map { ": " + Describe.result($0) } ?? "") + why])
        }
        if let callbacks { details.add(["  callbacks", "delivered, \(callbacks.text)"]) }
        details.add(["  anomalies", anomalies.isEmpty ? "none" : anomalies[0]])
        for anomaly in anomalies.dropFirst() { details.add(["", anomaly]) }
        lines += details.lines()
        return lines
    }

    private var carrierIDText: String {
        if case .absorbed(let into) = routing { return into.description }
        return "?"
    }

    /// The report as one JSON object.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("switch", .unsigned(id.number)),
            ("call", FactJSON.callID(call)),
            ("requested", requested.json),
            ("to", FactJSON.projectRef(project)),
            ("routing", FactJSON.routing(routing)),
            ("from", .optional(from ?? liveAtRequest, FactJSON.project)),
            ("from_label", labels.json(from ?? liveAtRequest)),
            ("absorbed", .array(absorbed.map { .object([("switch", .unsigned($0.id.number)), ("call", FactJSON.callID($0.call)),
                                                        ("requested", $0.at.json)]) })),
            ("started", .optional(started) { $0.json }),
            ("steps", .array(steps.map { step in
                .object([("step", .string(step.step.rawValue)), ("began", step.began.json),
                         ("finished", .optional(step.finished) { $0.json }),
                         ("outcome", .optional(step.outcome, FactJSON.stepOutcome)),
                         ("elapsed_us", .optional(step.elapsedMicroseconds) { .integer($0) })])
            })),
        ]
        members.append(("disable_durability", .optional(durability) { durability in
            .object([("request", .unsigned(durability.request)), ("requested", durability.requested.json),
                     ("bound_due", .optional(durability.boundDue) { .string($0.description) }),
                     ("bound_passed", .optional(durability.boundPassed) { $0.json }),
                     ("confirmed", .optional(durability.confirmed) { $0.json }),
                     ("failure", .optional(durability.failure, JSONValue.string)),
                     ("within_bound", .bool(durability.confirmed.map { confirmed in
                         durability.failure == nil && durability.boundPassed.map { confirmed.sequence < $0.sequence } ?? true } ?? false))])
        }))
        members.append(("held", .array(held.map { call in
            .object([("call", FactJSON.callID(call.call)), ("name", .string(call.name)), ("position", .integer(Int64(call.position))),
                     ("queued", call.queued.json), ("replayed", .optional(call.replayed) { $0.json }),
                     ("replayed_on", .optional(call.replayedOn, FactJSON.project)),
                     ("dropped", .optional(call.dropped) { $0.json })])
        })))
        members.append(("inline", .array(inline.map { call in
            .object([("call", FactJSON.callID(call.call)), ("name", .string(call.name)), ("at", call.at.json),
                     ("project", FactJSON.project(call.project))])
        })))
        // Only where the clock jumped: reports of journals without a jump keep their members.
        if !clockJumps.isEmpty {
            members.append(("clock_jumps", .array(clockJumps.map { jump in
                .object([("at", jump.at.json), ("jump_us", .integer(jump.jumpMicroseconds)), ("wall", .string(jump.wall.description))])
            })))
        }
        // Only where the app went to the background during the switch.
        if !background.isEmpty {
            members.append(("background", .array(background.map { note in .object([("at", note.at.json), ("text", .string(note.text))]) })))
        }
        // Only where storage opened late or a key could not be filed during the switch.
        if !storage.isEmpty {
            members.append(("storage", .array(storage.map { note in .object([("at", note.at.json), ("text", .string(note.text))]) })))
        }
        members += [
            ("landed", .optional(landed ?? carrierLanded) { $0.json }),
            ("landed_on", .optional(landedOn, FactJSON.project)),
            ("result", .optional(result) { .string(Describe.result($0)) }),
            ("reasons", .array(reasons.map(JSONValue.string))),
            ("callbacks_delivered", .optional(callbacks) { $0.json }),
            ("cancelled", .optional(cancelled) { .object([("at", $0.mark.json), ("reason", .string($0.reason))]) }),
            ("anomalies", .array(anomalies.map(JSONValue.string))),
        ]
        return .object(members)
    }
}

extension SwitchDiagnosis {
    /// Reports as text, separated by blank lines.
    package static func lines(_ reports: [SwitchReport]) -> [String] {
        var lines: [String] = []
        for (index, report) in reports.enumerated() {
            if index > 0 { lines.append("") }
            lines += report.lines
        }
        return lines
    }
}
