import SDK

extension AuditRow {
    /// One thing the gate, or the switch router for a control call, did with a call. Kept as
    /// the value the journal gave; its words are made when the row is written.
    enum GateStep: Sendable {
        /// The gate's decision (a gateDecided's, or the one an eventBatched carries).
        case decided(GateDecision)
        /// The call was rejected.
        case rejected
        /// Switch `id` routed the (control) call.
        case routed(SwitchID, SwitchRouting)

        /// The step's name (`--json`'s `gate`): `executed`, `queued`, `replayed`, `rejected`,
        /// `started`...
        var name: String {
            switch self {
            case .decided(let decision): Describe.decisionName(decision)
            case .rejected: "rejected"
            case .routed(_, let routing): Describe.routingName(routing)
            }
        }

        /// Whether the step is the gate queueing the call.
        var isQueued: Bool {
            if case .decided(.queued) = self { true } else { false }
        }

        /// Appends what the step says on its own (a replay after a queueing is said with it:
        /// ``AuditRow/gateDetails``).
        func writeDetail(to output: inout ScratchBytes) {
            switch self {
            case .decided(let decision):
                switch decision {
                case .replayed(let id, let project):
                    output.append("replayed by " as StaticString)
                    output.append(id.description)
                    output.append(" on " as StaticString)
                    output.append(project.description)
                case .queued(let id, _, _):
                    output.append("queued " as StaticString)
                    output.append(id.description)
                case .executed, .inline, .refused:
                    output.append(Describe.decisionName(decision))
                }
            case .rejected:
                output.append("rejected" as StaticString)
            case .routed(let id, let routing):
                switch routing {
                case .absorbed(let into):
                    output.append("absorbed into " as StaticString)
                    output.append(into.description)
                case .enqueued(let behind):
                    output.append(id.description)
                    output.append(" behind " as StaticString)
                    output.append(behind.description)
                case .noop:
                    output.append("noop" as StaticString)
                case .started:
                    output.append(id.description)
                    output.append(" started" as StaticString)
                case .initialization:
                    output.append(id.description)
                    output.append(" initialization" as StaticString)
                case .moved(let entry):
                    output.append("moved " as StaticString)
                    output.append(entry.description)
                    output.append(" to the tail" as StaticString)
                }
            }
        }

        /// The switch that replayed the call, when the step is its replay.
        var replayedBy: SwitchID? {
            if case .decided(.replayed(let id, _)) = self { id } else { nil }
        }
    }

    /// Calls `body` with each of ``gateDetails``' words, written by `write`: a step's own
    /// detail, or a queueing followed by its replay said as one, `queued s2, replayed`.
    private func forEachGateDetail(_ body: (_ write: (inout ScratchBytes) -> Void) -> Void) {
        var index = gate.startIndex
        while index < gate.endIndex {
            let step = gate[index]
            let next = index + 1 < gate.endIndex ? gate[index + 1] : nil
            if step.isQueued, let replayer = next?.replayedBy {
                body { output in
                    output.append("queued " as StaticString)
                    output.append(replayer.description)
                    output.append(", replayed" as StaticString)
                }
                index += 2
            } else {
                body { step.writeDetail(to: &$0) }
                index += 1
            }
        }
    }

    /// What the gate did, in words, in order (`--json`'s `gate_detail`, the text's gate
    /// column): each step's own words (``GateStep/writeDetail(to:)``), but a queueing and the replay right after it
    /// are said as one, `queued s2, replayed`.
    var gateDetails: [String] {
        var details: [String] = []
        forEachGateDetail { write in
            details.append(ScratchBytes.withScratch { bytes in
                write(&bytes)
                return String(decoding: bytes.written, as: UTF8.self)
            })
        }
        return details
    }

    /// Appends ``gateDetails`` as a JSON array of strings, each written in place. A detail is
    /// words, switch ids (`s2`) and fingerprints' hex: nothing in it is escaped in JSON (a
    /// test holds the bytes to ``gateDetails`` serialized).
    func writeGateDetailsJSON(to output: inout ScratchBytes) {
        output.append(UInt8(ascii: "["))
        var first = true
        forEachGateDetail { write in
            output.append(first ? "\"" as StaticString : ",\"")
            first = false
            write(&output)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Appends ``AuditRow/gateText``'s bytes (the text's gate column), without making its
    /// strings.
    func writeGateText(to output: inout ScratchBytes) {
        guard !gate.isEmpty else {
            return output.append(name.switchBehavior == .control ? "control" as StaticString : "-")
        }
        var first = true
        forEachGateDetail { write in
            if !first { output.append(", " as StaticString) }
            first = false
            write(&output)
        }
    }

    /// Each step's name, in order (`--json`'s `gate`).
    var gateNames: [String] { gate.map(\.name) }
}
