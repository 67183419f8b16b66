import Journal

// Tagged-field encodings of decisions' values. Variant tags and field numbers are part of the
// journal format: never reuse or renumber; add new ones.

extension GateDecision: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .executed(let project): writer.unsigned(1, 1); writer.message(2, project)
        case .queued(let id, let position, let call):
            writer.unsigned(1, 2); writer.message(3, id); writer.int(4, position); writer.message(5, call)
        case .replayed(let id, let project): writer.unsigned(1, 3); writer.message(3, id); writer.message(2, project)
        case .inline(let project): writer.unsigned(1, 4); writer.message(2, project)
        case .refused: writer.unsigned(1, 5)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .executed(project: try fields.requiredMessage(2, "project"))
        case 2: self = .queued(switch: try fields.requiredMessage(3, "switch"), position: try fields.int(4) ?? 0,
                               call: try fields.requiredMessage(5, "call"))
        case 3: self = .replayed(switch: try fields.requiredMessage(3, "switch"), project: try fields.requiredMessage(2, "project"))
        case 4: self = .inline(project: try fields.requiredMessage(2, "project"))
        case 5: self = .refused
        default: throw fields.unknown("gate decision")
        }
    }
}

extension JournalTime: FieldCodable {
    func encode(to writer: inout FieldWriter) { writer.signed(1, microsecondsSince1970) }

    init(from reader: inout FieldReader) throws(CodecError) {
        var value: Int64 = 0
        while let field = try reader.next() { if field.number == 1 { value = try field.signed() } }
        self.init(microsecondsSince1970: value)
    }
}

extension DeliveryTask: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, id)
        writer.message(2, call)
        writer.message(3, project)
        writer.string(4, region)
        writer.string(5, endpoint)
        writer.string(6, path)
        writer.unsigned(7, method == .get ? 1 : 2)
        writer.string(8, query)
        writer.bytes(9, body)
        writer.signed(10, createdAt.microsecondsSince1970)
        writer.unsigned(11, generation)
        writer.messages(12, batch)
        // Always written, empty for no user: a task without the field is one written before
        // tasks named their user, whose user its request's body names.
        writer.message(13) { if let user { user.encode(to: &$0) } }
        // Each batched event's time, as its distance from the task's creation (none in journals
        // older than per-event ages, whose events read as queued with their task).
        for time in batchQueuedAt { writer.signed(14, time.microsecondsSince1970 &- createdAt.microsecondsSince1970) }
        if leadExpired { writer.bool(15, true) }
        writer.messages(16, coalescedCalls)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var id: TaskID?, call: CallID?, project: ProjectFingerprint?
        var region = "", endpoint = "", path = "", query: String?
        var method = Method.post
        var body: [UInt8] = []
        var created: Int64 = 0
        var generation: UInt64?
        var batch: [BatchedEvent] = []
        var user: UserIdentity??
        var queuedAfter: [Int64] = []
        var leadExpired = false
        var coalesced: [CallID] = []
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.message()
            case 2: call = try field.message()
            case 3: project = try field.message()
            case 4: region = try field.string()
            case 5: endpoint = try field.string()
            case 6: path = try field.string()
            case 7: method = try field.unsigned() == 1 ? .get : .post
            case 8: query = try field.string()
            case 9: body = [UInt8](try field.bytes())
            case 10: created = try field.signed()
            case 11: generation = try field.unsigned()
            case 12: batch.append(try field.message())
            case 13: user = .some(try field.message(OptionalUserIdentity.self).identity)
            case 14: queuedAfter.append(try field.signed())
            case 15: leadExpired = try field.bool()
            case 16: coalesced.append(try field.message())
            default: break
            }
        }
        guard let id, let project else { throw missing("task id or project") }
        self.init(id: id, call: call, project: project, region: region, endpoint: endpoint, path: path, method: method,
                  query: query, body: body, createdAt: JournalTime(microsecondsSince1970: created), generation: generation,
                  user: user ?? DeliveryTask.userNamed(body: body, query: query))
        replaceBatch(batch, queuedAt: queuedAfter.map { JournalTime(microsecondsSince1970: created &+ $0) })
        if leadExpired { markLeadExpired() }
        for call in coalesced { coalesce(call) }
    }
}

extension UserIdentity {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .email(let email): writer.string(1, email)
        case .userID(let userID): writer.string(2, userID)
        }
    }
}

/// A task's field 13: its user, or none (an empty message).
private struct OptionalUserIdentity: FieldCodable {
    var identity: UserIdentity?

    func encode(to writer: inout FieldWriter) {
        identity?.encode(to: &writer)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        if let email = try fields.string(1) {
            identity = .email(email)
        } else if let userID = try fields.string(2) {
            identity = .userID(userID)
        } else {
            identity = nil
        }
    }
}

extension BatchedEvent: FieldCodable {
    /// Without field 2 when the body is empty: an event whose `eventBatched` carries the gate's
    /// decision (format 1.3), whose body its call makes. A JSON body is never empty.
    func encode(to writer: inout FieldWriter) {
        writer.message(1, call)
        if !body.isEmpty { writer.bytes(2, body) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var call: CallID?
        var body: [UInt8] = []
        while let field = try reader.next() {
            switch field.number {
            case 1: call = try field.message()
            case 2: body = Array(try field.bytes())
            default: break
            }
        }
        guard let call else { throw missing("batched event's call") }
        self.init(call: call, body: body)
    }
}

extension RefusedEvent: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.int(1, index)
        writer.string(2, reason)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var index = 0
        var reason = ""
        while let field = try reader.next() {
            switch field.number {
            case 1: index = try field.int()
            case 2: reason = try field.string()
            default: break
            }
        }
        self.init(index: index, reason: reason)
    }
}

extension CallFailure: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .rejected(let reason): writer.unsigned(1, 1); writer.string(2, reason)
        case .notInitialized: writer.unsigned(1, 2)
        case .httpStatus(let status, let code, let message):
            writer.unsigned(1, 3); writer.int(3, status); writer.string(4, code); writer.string(5, message)
        case .retriesExhausted(let reason): writer.unsigned(1, 4); writer.string(2, reason)
        case .authentication(let reason): writer.unsigned(1, 5); writer.string(2, reason)
        case .linkNotResolved(let reason): writer.unsigned(1, 6); writer.string(2, reason)
        case .notDurable(let reason): writer.unsigned(1, 7); writer.string(2, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .rejected(try fields.string(2) ?? "")
        case 2: self = .notInitialized
        case 3: self = .httpStatus(try fields.int(3) ?? 0, code: try fields.string(4), message: try fields.string(5))
        case 4: self = .retriesExhausted(try fields.string(2) ?? "")
        case 5: self = .authentication(try fields.string(2) ?? "")
        case 6: self = .linkNotResolved(try fields.string(2) ?? "")
        case 7: self = .notDurable(try fields.string(2) ?? "")
        default: throw fields.unknown("failure")
        }
    }
}

extension DiscardReason: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .purgedByLogout: writer.unsigned(1, 1)
        case .purgedBySwitch(let id): writer.unsigned(1, 2); writer.message(2, id)
        case .undeliveredAtSwitch(let id): writer.unsigned(1, 3); writer.message(2, id)
        case .gateFull(let capacity): writer.unsigned(1, 4); writer.int(3, capacity)
        case .queueFull(let capacity): writer.unsigned(1, 5); writer.int(3, capacity)
        case .shutdown: writer.unsigned(1, 6)
        case .expired(let ageLimit): writer.unsigned(1, 7); writer.signed(4, ageLimit.wholeMilliseconds)
        case .consentDeclined: writer.unsigned(1, 8)
        case .erased: writer.unsigned(1, 9)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .purgedByLogout
        case 2: self = .purgedBySwitch(try fields.requiredMessage(2, "switch"))
        case 3: self = .undeliveredAtSwitch(try fields.requiredMessage(2, "switch"))
        case 4: self = .gateFull(capacity: try fields.int(3) ?? 0)
        case 5: self = .queueFull(capacity: try fields.int(3) ?? 0)
        case 6: self = .shutdown
        case 7: self = .expired(ageLimit: .milliseconds(try fields.signed(4) ?? 0))
        case 8: self = .consentDeclined
        case 9: self = .erased
        default: throw fields.unknown("discard reason")
        }
    }
}

extension TaskOutcome: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .delivered(let status): writer.unsigned(1, 1); writer.int(2, status)
        case .failed(let failure): writer.unsigned(1, 2); writer.message(3, failure)
        case .discarded(let reason): writer.unsigned(1, 3); writer.message(4, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .delivered(status: try fields.int(2) ?? 0)
        case 2: self = .failed(try fields.requiredMessage(3, "failure"))
        case 3: self = .discarded(try fields.requiredMessage(4, "reason"))
        default: throw fields.unknown("task outcome")
        }
    }
}

extension CallOutcome: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .delivered(let project, let status): writer.unsigned(1, 1); writer.message(2, project); writer.int(3, status)
        case .applied(let project): writer.unsigned(1, 2); writer.message(2, project)
        case .failed(let failure): writer.unsigned(1, 3); writer.message(4, failure)
        case .discarded(let reason): writer.unsigned(1, 4); writer.message(5, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .delivered(project: try fields.requiredMessage(2, "project"), status: try fields.int(3) ?? 0)
        case 2: self = .applied(project: try fields.message(2))
        case 3: self = .failed(try fields.requiredMessage(4, "failure"))
        case 4: self = .discarded(try fields.requiredMessage(5, "reason"))
        default: throw fields.unknown("call outcome")
        }
    }
}

extension ModuleSignal: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .initialize: writer.unsigned(1, 1)
        case .start: writer.unsigned(1, 2)
        case .notification(let name): writer.unsigned(1, 3); writer.string(2, name)
        case .reset: writer.unsigned(1, 4)
        case .deinitialize: writer.unsigned(1, 5)
        case .willLogout: writer.unsigned(1, 6)
        case .willSwitchProject(let to): writer.unsigned(1, 7); writer.message(3, to)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .initialize
        case 2: self = .start
        case 3: self = .notification(try fields.string(2) ?? "")
        case 4: self = .reset
        case 5: self = .deinitialize
        case 6: self = .willLogout
        case 7: self = .willSwitchProject(to: try fields.requiredMessage(3, "project"))
        default: throw fields.unknown("module signal")
        }
    }
}

extension SwitchRouting: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .started: writer.unsigned(1, 1)
        case .absorbed(let into): writer.unsigned(1, 2); writer.message(2, into)
        case .enqueued(let behind): writer.unsigned(1, 3); writer.message(2, behind)
        case .noop: writer.unsigned(1, 4)
        case .initialization: writer.unsigned(1, 5)
        case .moved(let entry): writer.unsigned(1, 6); writer.message(2, entry)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .started
        case 2: self = .absorbed(into: try fields.requiredMessage(2, "switch"))
        case 3: self = .enqueued(behind: try fields.requiredMessage(2, "switch"))
        case 4: self = .noop
        case 5: self = .initialization
        case 6: self = .moved(entry: try fields.requiredMessage(2, "switch"))
        default: throw fields.unknown("switch routing")
        }
    }
}

extension StepOutcome: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .clean: writer.unsigned(1, 1)
        case .warning(let reason): writer.unsigned(1, 2); writer.string(2, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .clean
        case 2: self = .warning(try fields.string(2) ?? "")
        default: throw fields.unknown("step outcome")
        }
    }
}

extension DurabilityWait: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .flush(let call): writer.unsigned(1, 1); writer.message(2, call)
        case .teardownDisable(let id): writer.unsigned(1, 2); writer.message(3, id)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .flush(try fields.requiredMessage(2, "call"))
        case 2: self = .teardownDisable(try fields.requiredMessage(3, "switch"))
        default: throw fields.unknown("durability wait")
        }
    }
}
