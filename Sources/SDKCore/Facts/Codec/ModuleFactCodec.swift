/// The payloads of module facts (``FactFamily/module``).
enum ModuleFactCodec {
    /// Writes the payload of a module fact.
    static func encode(_ fact: Fact, to writer: inout FieldWriter) {
        switch fact {
        case .moduleEventDelivered(let module, let event, let project, let generation):
            writer.string(1, module); writer.message(2, event); writer.message(3, project); writer.unsigned(4, generation)
        case .moduleHookStarted(let hook, let module, let event):
            writer.unsigned(1, hook); writer.string(2, module); writer.message(3, event)
        case .moduleHookFinished(let hook, let problem):
            writer.unsigned(1, hook); writer.string(3, problem)
        case .messagesStored(let kind, let project, let ids):
            writer.string(1, kind.rawValue); writer.message(2, project); writer.strings(3, ids)
        case .storageCleared(let project, let scope):
            writer.message(1, project); writer.string(2, scope.rawValue)
        default:
            // Right: FactCodec hands this codec only its family's facts (``FactKind/family``, which
            // lists every kind); a new fact is added to its family's cases above.
            break
        }
    }

    /// Reads the module fact of `kind`.
    static func decode(_ kind: FactKind, _ reader: inout FieldReader) throws(CodecError) -> Fact {
        let fields = try FieldsByNumber(&reader)
        switch kind {
        case .moduleEventDelivered:
            return .moduleEventDelivered(module: try fields.string(1) ?? "", event: try fields.required(2, "event"),
                                         project: try fields.required(3, "project"), generation: try fields.unsigned(4) ?? 0)
        case .moduleHookStarted:
            return .moduleHookStarted(hook: try fields.unsigned(1) ?? 0, module: try fields.string(2) ?? "",
                                      event: try fields.required(3, "event"))
        case .moduleHookFinished:
            return .moduleHookFinished(hook: try fields.unsigned(1) ?? 0, problem: try fields.string(3))
        case .messagesStored:
            guard let kind = MessageKind(rawValue: try fields.string(1) ?? "") else {
                throw CodecError("unknown message kind", offset: 0, unknownVariant: true)
            }
            return .messagesStored(kind: kind, project: try fields.required(2, "project"), ids: try fields.strings(3))
        case .storageCleared:
            guard let scope = StorageScope(rawValue: try fields.string(2) ?? "") else {
                throw CodecError("unknown storage scope", offset: 0, unknownVariant: true)
            }
            return .storageCleared(project: try fields.required(1, "project"), scope: scope)
        default:
            // Right: FactCodec asks this codec only for its family's kinds (``FactKind/family``).
            throw CodecError("kind \(kind) not handled", offset: 0)
        }
    }
}
