/// The payloads of call facts (``FactFamily/call``).
enum CallFactCodec {
    /// Writes the payload of a call fact.
    static func encode(_ fact: Fact, to writer: inout FieldWriter) {
        switch fact {
        case .initialized(let project, let generation):
            writer.message(1, project); writer.unsigned(2, generation)
        case .callRejected(let call, let reason):
            writer.message(1, call); writer.string(2, reason)
        case .identityChanged(let email, let userID):
            writer.string(1, email); writer.string(2, userID)
        case .pushTokenChanged(let token):
            writer.string(1, token)
        case .attributionChanged(let project, let info):
            writer.message(1, project); writer.message(2, info)
        case .attributionRefused(let project, let reason):
            writer.message(1, project); writer.string(2, reason)
        case .unknownUserEventHeld(let project, let call, let event):
            writer.message(1, project); writer.message(2, call); writer.message(3, event)
        case .unknownUserSessionCounted(let project), .unknownUserEventsReleased(let project):
            writer.message(1, project)
        case .callResolved(let call, let outcome):
            writer.message(1, call); writer.message(2, outcome)
        case .callsResolved(let task, let calls, let outcome):
            writer.message(1, task); writer.message(2, outcome)
            writer.messages(3, calls)
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            writer.unsigned(1, job); writer.message(2, call); writer.string(3, url); writer.message(4, project); writer.unsigned(5, generation)
        case .staleResultRefused(let job, let what, let startedIn, let current):
            writer.unsigned(1, job); writer.string(2, what); writer.unsigned(3, startedIn); writer.unsigned(4, current)
        default:
            // Right: FactCodec hands this codec only its family's facts (``FactKind/family``, which
            // lists every kind); a new fact is added to its family's cases above.
            break
        }
    }

    /// Reads the call fact of `kind`.
    static func decode(_ kind: FactKind, _ reader: inout FieldReader) throws(CodecError) -> Fact {
        let fields = try FieldsByNumber(&reader)
        switch kind {
        case .initialized:
            return .initialized(project: try fields.required(1, "project"), generation: try fields.unsigned(2) ?? 0)
        case .callRejected:
            return .callRejected(call: try fields.required(1, "call"), reason: try fields.string(2) ?? "")
        case .identityChanged:
            return .identityChanged(email: try fields.string(1), userID: try fields.string(2))
        case .pushTokenChanged:
            return .pushTokenChanged(try fields.string(1))
        case .attributionChanged:
            return .attributionChanged(project: try fields.required(1, "project"), info: try fields.message(2))
        case .attributionRefused:
            return .attributionRefused(project: try fields.required(1, "project"), reason: try fields.string(2) ?? "")
        case .unknownUserEventHeld:
            return .unknownUserEventHeld(project: try fields.required(1, "project"), call: try fields.required(2, "call"),
                                         event: try fields.required(3, "event"))
        case .unknownUserSessionCounted:
            return .unknownUserSessionCounted(project: try fields.required(1, "project"))
        case .unknownUserEventsReleased:
            return .unknownUserEventsReleased(project: try fields.required(1, "project"))
        case .callResolved:
            return .callResolved(call: try fields.required(1, "call"), outcome: try fields.required(2, "outcome"))
        case .callsResolved:
            return .callsResolved(task: try fields.required(1, "task"), calls: try fields.messages(3),
                                  outcome: try fields.required(2, "outcome"))
        case .linkResolutionStarted:
            return .linkResolutionStarted(job: try fields.unsigned(1) ?? 0, call: try fields.required(2, "call"),
                                          url: try fields.string(3) ?? "", project: try fields.required(4, "project"),
                                          generation: try fields.unsigned(5) ?? 0)
        case .staleResultRefused:
            return .staleResultRefused(job: try fields.unsigned(1) ?? 0, what: try fields.string(2) ?? "",
                                       startedIn: try fields.unsigned(3) ?? 0, current: try fields.unsigned(4) ?? 0)
        default:
            // Right: FactCodec asks this codec only for its family's kinds (``FactKind/family``).
            throw CodecError("kind \(kind) not handled", offset: 0)
        }
    }
}
