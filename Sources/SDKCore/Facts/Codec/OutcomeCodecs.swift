import Journal

// Tagged-field encodings of decisions' values. Variant tags and field numbers are part of the
// journal format: never reuse or renumber; add new ones.

// Hand-written: `replay` reads one for about a sixth of a journal's records; declared, `replay audit` took 1.2% more instructions.
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

extension JournalTime: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "microseconds", \JournalTime.microsecondsSince1970, .signed, .defaulted(0)), make: JournalTime.init(microsecondsSince1970:))
}

// Hand-written: an absent user is the one its body names, and its events' times are distances from its creation; no field says either.
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
// Hand-written: which of two fields is present is the case (no tag field), which a variant cannot say.
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

// Hand-written: read for every `eventBatched`, the busiest decision, in one pass (a layout reads the message once per field).
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

extension RefusedEvent: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "index", \RefusedEvent.index, .int, .defaulted(0)),
        ValueField(2, "reason", \RefusedEvent.reason, .string, .defaulted("")),
        make: RefusedEvent.init(index:reason:))
}

extension CallFailure: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let rejected = ValueVariant(1, ValueField(2, "reason", .string, .defaulted("")), make: CallFailure.rejected)
        static let notInitialized = ValueVariant<CallFailure>(2, make: { .notInitialized })
        static let httpStatus = ValueVariant(
            3, ValueField(3, "status", .int, .defaulted(0)), ValueField(optional: 4, "code", .string), ValueField(optional: 5, "message", .string),
            make: { CallFailure.httpStatus($0, code: $1, message: $2) })
        static let retriesExhausted = ValueVariant(4, ValueField(2, "reason", .string, .defaulted("")), make: CallFailure.retriesExhausted)
        static let authentication = ValueVariant(5, ValueField(2, "reason", .string, .defaulted("")), make: CallFailure.authentication)
        static let linkNotResolved = ValueVariant(6, ValueField(2, "reason", .string, .defaulted("")), make: CallFailure.linkNotResolved)
        static let notDurable = ValueVariant(7, ValueField(2, "reason", .string, .defaulted("")), make: CallFailure.notDurable)
    }
    static let variants = VariantLayout("failure", [
        Wire.rejected.reader, Wire.notInitialized.reader, Wire.httpStatus.reader, Wire.retriesExhausted.reader, Wire.authentication.reader,
        Wire.linkNotResolved.reader, Wire.notDurable.reader,
    ])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .rejected(let reason): Wire.rejected.write(reason, to: &writer)
        case .notInitialized: Wire.notInitialized.write(to: &writer)
        case .httpStatus(let status, let code, let message): Wire.httpStatus.write(status, code, message, to: &writer)
        case .retriesExhausted(let reason): Wire.retriesExhausted.write(reason, to: &writer)
        case .authentication(let reason): Wire.authentication.write(reason, to: &writer)
        case .linkNotResolved(let reason): Wire.linkNotResolved.write(reason, to: &writer)
        case .notDurable(let reason): Wire.notDurable.write(reason, to: &writer)
        }
    }
}

extension DiscardReason: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let purgedByLogout = ValueVariant<DiscardReason>(1, make: { .purgedByLogout })
        static let purgedBySwitch = ValueVariant(2, ValueField(2, "switch", .message, .required), make: DiscardReason.purgedBySwitch)
        static let undeliveredAtSwitch = ValueVariant(3, ValueField(2, "switch", .message, .required), make: DiscardReason.undeliveredAtSwitch)
        static let gateFull = ValueVariant(4, ValueField(3, "capacity", .int, .defaulted(0)), make: DiscardReason.gateFull(capacity:))
        static let queueFull = ValueVariant(5, ValueField(3, "capacity", .int, .defaulted(0)), make: DiscardReason.queueFull(capacity:))
        static let shutdown = ValueVariant<DiscardReason>(6, make: { .shutdown })
        static let expired = ValueVariant(
            7, ValueField(4, "ageLimit", FieldCoding<Int64>.signed.map({ Duration.milliseconds($0) }, \.wholeMilliseconds), .defaulted(.zero)),
            make: DiscardReason.expired(ageLimit:))
        static let consentDeclined = ValueVariant<DiscardReason>(8, make: { .consentDeclined })
        static let erased = ValueVariant<DiscardReason>(9, make: { .erased })
    }
    static let variants = VariantLayout("discard reason", [
        Wire.purgedByLogout.reader, Wire.purgedBySwitch.reader, Wire.undeliveredAtSwitch.reader, Wire.gateFull.reader, Wire.queueFull.reader,
        Wire.shutdown.reader, Wire.expired.reader, Wire.consentDeclined.reader, Wire.erased.reader,
    ])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .purgedByLogout: Wire.purgedByLogout.write(to: &writer)
        case .purgedBySwitch(let id): Wire.purgedBySwitch.write(id, to: &writer)
        case .undeliveredAtSwitch(let id): Wire.undeliveredAtSwitch.write(id, to: &writer)
        case .gateFull(let capacity): Wire.gateFull.write(capacity, to: &writer)
        case .queueFull(let capacity): Wire.queueFull.write(capacity, to: &writer)
        case .shutdown: Wire.shutdown.write(to: &writer)
        case .expired(let ageLimit): Wire.expired.write(ageLimit, to: &writer)
        case .consentDeclined: Wire.consentDeclined.write(to: &writer)
        case .erased: Wire.erased.write(to: &writer)
        }
    }
}

extension TaskOutcome: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let delivered = ValueVariant(1, ValueField(2, "status", .int, .defaulted(0)), make: TaskOutcome.delivered(status:))
        static let failed = ValueVariant(2, ValueField(3, "failure", .message, .required), make: TaskOutcome.failed)
        static let discarded = ValueVariant(3, ValueField(4, "reason", .message, .required), make: TaskOutcome.discarded)
    }
    static let variants = VariantLayout("task outcome", [Wire.delivered.reader, Wire.failed.reader, Wire.discarded.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .delivered(let status): Wire.delivered.write(status, to: &writer)
        case .failed(let failure): Wire.failed.write(failure, to: &writer)
        case .discarded(let reason): Wire.discarded.write(reason, to: &writer)
        }
    }
}

extension CallOutcome: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let delivered = ValueVariant(
            1, ValueField(2, "project", .message, .required), ValueField(3, "status", .int, .defaulted(0)),
            make: CallOutcome.delivered(project:status:))
        static let applied = ValueVariant(2, ValueField(optional: 2, "project", .message), make: CallOutcome.applied(project:))
        static let failed = ValueVariant(3, ValueField(4, "failure", .message, .required), make: CallOutcome.failed)
        static let discarded = ValueVariant(4, ValueField(5, "reason", .message, .required), make: CallOutcome.discarded)
    }
    static let variants = VariantLayout("call outcome", [Wire.delivered.reader, Wire.applied.reader, Wire.failed.reader, Wire.discarded.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .delivered(let project, let status): Wire.delivered.write(project, status, to: &writer)
        case .applied(let project): Wire.applied.write(project, to: &writer)
        case .failed(let failure): Wire.failed.write(failure, to: &writer)
        case .discarded(let reason): Wire.discarded.write(reason, to: &writer)
        }
    }
}

extension ModuleSignal: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let initialize = ValueVariant<ModuleSignal>(1, make: { .initialize })
        static let start = ValueVariant<ModuleSignal>(2, make: { .start })
        static let notification = ValueVariant(3, ValueField(2, "name", .string, .defaulted("")), make: ModuleSignal.notification)
        static let reset = ValueVariant<ModuleSignal>(4, make: { .reset })
        static let deinitialize = ValueVariant<ModuleSignal>(5, make: { .deinitialize })
        static let willLogout = ValueVariant<ModuleSignal>(6, make: { .willLogout })
        static let willSwitchProject = ValueVariant(7, ValueField(3, "project", .message, .required), make: ModuleSignal.willSwitchProject(to:))
    }
    static let variants = VariantLayout("module signal", [
        Wire.initialize.reader, Wire.start.reader, Wire.notification.reader, Wire.reset.reader, Wire.deinitialize.reader, Wire.willLogout.reader,
        Wire.willSwitchProject.reader,
    ])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .initialize: Wire.initialize.write(to: &writer)
        case .start: Wire.start.write(to: &writer)
        case .notification(let name): Wire.notification.write(name, to: &writer)
        case .reset: Wire.reset.write(to: &writer)
        case .deinitialize: Wire.deinitialize.write(to: &writer)
        case .willLogout: Wire.willLogout.write(to: &writer)
        case .willSwitchProject(let to): Wire.willSwitchProject.write(to, to: &writer)
        }
    }
}

extension SwitchRouting: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let started = ValueVariant<SwitchRouting>(1, make: { .started })
        static let absorbed = ValueVariant(2, ValueField(2, "switch", .message, .required), make: SwitchRouting.absorbed(into:))
        static let enqueued = ValueVariant(3, ValueField(2, "switch", .message, .required), make: SwitchRouting.enqueued(behind:))
        static let noop = ValueVariant<SwitchRouting>(4, make: { .noop })
        static let initialization = ValueVariant<SwitchRouting>(5, make: { .initialization })
        static let moved = ValueVariant(6, ValueField(2, "switch", .message, .required), make: SwitchRouting.moved(entry:))
    }
    static let variants = VariantLayout("switch routing", [
        Wire.started.reader, Wire.absorbed.reader, Wire.enqueued.reader, Wire.noop.reader, Wire.initialization.reader, Wire.moved.reader,
    ])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .started: Wire.started.write(to: &writer)
        case .absorbed(let into): Wire.absorbed.write(into, to: &writer)
        case .enqueued(let behind): Wire.enqueued.write(behind, to: &writer)
        case .noop: Wire.noop.write(to: &writer)
        case .initialization: Wire.initialization.write(to: &writer)
        case .moved(let entry): Wire.moved.write(entry, to: &writer)
        }
    }
}

extension StepOutcome: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let clean = ValueVariant<StepOutcome>(1, make: { .clean })
        static let warning = ValueVariant(2, ValueField(2, "reason", .string, .defaulted("")), make: StepOutcome.warning)
    }
    static let variants = VariantLayout("step outcome", [Wire.clean.reader, Wire.warning.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .clean: Wire.clean.write(to: &writer)
        case .warning(let reason): Wire.warning.write(reason, to: &writer)
        }
    }
}

extension DurabilityWait: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let flush = ValueVariant(1, ValueField(2, "call", .message, .required), make: DurabilityWait.flush)
        static let teardownDisable = ValueVariant(2, ValueField(3, "switch", .message, .required), make: DurabilityWait.teardownDisable)
    }
    static let variants = VariantLayout("durability wait", [Wire.flush.reader, Wire.teardownDisable.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .flush(let call): Wire.flush.write(call, to: &writer)
        case .teardownDisable(let id): Wire.teardownDisable.write(id, to: &writer)
        }
    }
}
