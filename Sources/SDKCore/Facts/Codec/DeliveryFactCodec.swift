import Journal

/// The payloads of delivery facts (``FactFamily/delivery``).
enum DeliveryFactCodec {
    /// Writes the payload of a delivery fact.
    static func encode(_ fact: Fact, to writer: inout FieldWriter) {
        switch fact {
        case .taskQueued(let task):
            task.encode(to: &writer)
        case .eventBatched(let task, let event, let executedOn):
            encodeEventBatched(task: task, event: event, executedOn: executedOn, to: &writer)
        case .taskDispatched(let task, let attempt):
            writer.message(1, task); writer.int(2, attempt)
        case .retryScheduled(let task, let attempt, let due, let reason):
            writer.message(1, task); writer.int(2, attempt); writer.signed(3, due.microsecondsSince1970); writer.message(4, reason)
        case .taskCompleted(let task, let outcome):
            writer.message(1, task); writer.message(2, outcome)
        case .timerSet(let purpose, let due):
            writer.message(1, purpose); writer.signed(2, due.microsecondsSince1970)
        case .authRefreshRequested(let project, let request):
            writer.message(1, project); writer.unsigned(2, request)
        case .authRefreshFinished(let project, let request, let failure):
            writer.message(1, project); writer.unsigned(2, request); writer.string(3, failure)
        case .durabilityRequested(let request, let purpose):
            writer.unsigned(1, request); writer.message(2, purpose)
        case .journalGap(let gap):
            gap.encode(to: &writer)
        default:
            // Right: FactCodec hands this codec only its family's facts (``FactKind/family``, which
            // lists every kind); a new fact is added to its family's cases above.
            break
        }
    }

    /// Writes the payload of `.eventBatched(task:event:executedOn:)` from its parts.
    @inline(__always)
    static func encodeEventBatched(task: TaskID, event: BatchedEvent, executedOn: ProjectFingerprint?, to writer: inout FieldWriter) {
        writer.message(1, task)
        if event.body.isEmpty { writer.bodilessEvent(2, call: event.call) } else { writer.message(2, event) }
        writer.message(3, executedOn)
    }

    /// Reads the delivery fact of `kind`.
    static func decode(_ kind: FactKind, _ reader: inout FieldReader) throws(CodecError) -> Fact {
        switch kind {
        case .taskQueued: return .taskQueued(try DeliveryTask(from: &reader))
        case .journalGap: return .journalGap(try JournalGap(from: &reader))
        default: break
        }
        let fields = try FieldsByNumber(&reader)
        switch kind {
        case .eventBatched:
            return .eventBatched(task: try fields.required(1, "task"), event: try fields.required(2, "event"), executedOn: try fields.message(3))
        case .taskDispatched:
            return .taskDispatched(task: try fields.required(1, "task"), attempt: try fields.int(2) ?? 0)
        case .retryScheduled:
            return .retryScheduled(task: try fields.required(1, "task"), attempt: try fields.int(2) ?? 0,
                                   due: JournalTime(microsecondsSince1970: try fields.signed(3) ?? 0), reason: try fields.required(4, "reason"))
        case .taskCompleted:
            return .taskCompleted(task: try fields.required(1, "task"), outcome: try fields.required(2, "outcome"))
        case .timerSet:
            return .timerSet(try fields.required(1, "timer"), due: JournalTime(microsecondsSince1970: try fields.signed(2) ?? 0))
        case .authRefreshRequested:
            return .authRefreshRequested(project: try fields.required(1, "project"), request: try fields.unsigned(2) ?? 0)
        case .authRefreshFinished:
            return .authRefreshFinished(project: try fields.required(1, "project"), request: try fields.unsigned(2) ?? 0,
                                        failure: try fields.string(3))
        case .durabilityRequested:
            return .durabilityRequested(request: try fields.unsigned(1) ?? 0, purpose: try fields.required(2, "purpose"))
        default:
            // Right: FactCodec asks this codec only for its family's kinds (``FactKind/family``).
            throw CodecError("kind \(kind) not handled", offset: 0)
        }
    }
}
