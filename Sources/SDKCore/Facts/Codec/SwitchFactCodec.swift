/// The payloads of switch facts (``FactFamily/switch``), the gate's decisions among them.
enum SwitchFactCodec {
    /// Writes the payload of a switch fact.
    static func encode(_ fact: Fact, to writer: inout FieldWriter) {
        switch fact {
        case .gateDecided(let call, let decision):
            writer.message(1, call); writer.message(2, decision)
        case .switchRouted(let id, let call, let project, let routing):
            writer.message(1, id); writer.message(2, call); writer.message(3, project); writer.message(4, routing)
        case .switchStarted(let id, let from, let to):
            writer.message(1, id); writer.message(2, from); writer.message(3, to)
        case .teardownStepBegan(let id, let step):
            writer.message(1, id); writer.message(2, step)
        case .teardownStepFinished(let id, let step, let outcome, let elapsed):
            writer.message(1, id); writer.message(2, step); writer.message(3, outcome); writer.signed(4, elapsed)
        case .switchLanded(let id, let project, let result, let reasons):
            writer.message(1, id); writer.message(2, project); writer.unsigned(3, result.landingCode)
            writer.strings(4, reasons)
        case .switchCancelled(let id, let reason):
            writer.message(1, id); writer.string(2, reason)
        default:
            // Right: FactCodec hands this codec only its family's facts (``FactKind/family``, which
            // lists every kind); a new fact is added to its family's cases above.
            break
        }
    }

    /// Reads the switch fact of `kind`.
    static func decode(_ kind: FactKind, _ reader: inout FieldReader) throws(CodecError) -> Fact {
        let fields = try FieldsByNumber(&reader)
        switch kind {
        case .gateDecided:
            return .gateDecided(call: try fields.required(1, "call"), decision: try fields.required(2, "decision"))
        case .switchRouted:
            return .switchRouted(switch: try fields.required(1, "switch"), call: try fields.required(2, "call"),
                                 project: try fields.required(3, "project"), routing: try fields.required(4, "routing"))
        case .switchStarted:
            return .switchStarted(switch: try fields.required(1, "switch"), from: try fields.message(2), to: try fields.required(3, "project"))
        case .teardownStepBegan:
            return .teardownStepBegan(switch: try fields.required(1, "switch"), step: try fields.required(2, "step"))
        case .teardownStepFinished:
            return .teardownStepFinished(switch: try fields.required(1, "switch"), step: try fields.required(2, "step"),
                                         outcome: try fields.required(3, "outcome"), elapsedMicroseconds: try fields.signed(4) ?? 0)
        case .switchLanded:
            return .switchLanded(switch: try fields.required(1, "switch"), project: try fields.required(2, "project"),
                                 result: try fields.unsigned(3) == 1 ? .switchedCleanly : .switchedWithWarnings,
                                 reasons: try fields.strings(4))
        case .switchCancelled:
            return .switchCancelled(switch: try fields.required(1, "switch"), reason: try fields.string(2) ?? "")
        default:
            // Right: FactCodec asks this codec only for its family's kinds (``FactKind/family``).
            throw CodecError("kind \(kind) not handled", offset: 0)
        }
    }
}

extension SwitchResult {
    /// How `switchLanded` records the result: 1 clean, 2 with warnings (a landed switch is
    /// never one of the stopped cases).
    var landingCode: UInt64 { self == .switchedCleanly ? 1 : 2 }
}
