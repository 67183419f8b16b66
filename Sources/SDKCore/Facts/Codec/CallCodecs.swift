import Journal

// Tagged-field encodings of the input payloads. Variant tags and field
// numbers are part of the journal format: never reuse or renumber; add new ones.

extension PendingEventsRule: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let purge = ValueVariant<PendingEventsRule>(1, make: { .purge })
        static let deliverToOutgoing = ValueVariant(
            2, ValueField(2, "timeoutMilliseconds", .signed, .defaulted(0)), make: PendingEventsRule.deliverToOutgoing(timeoutMilliseconds:))
        static let keepForOutgoing = ValueVariant<PendingEventsRule>(3, make: { .keepForOutgoing })
    }
    static let variants = VariantLayout("pending-events rule", [Wire.purge.reader, Wire.deliverToOutgoing.reader, Wire.keepForOutgoing.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .purge: Wire.purge.write(to: &writer)
        case .deliverToOutgoing(let timeout): Wire.deliverToOutgoing.write(timeout, to: &writer)
        case .keepForOutgoing: Wire.keepForOutgoing.write(to: &writer)
        }
    }
}

extension EngineRules: DeclaredFieldCodable {
    /// An absent rule reads as the usual one, but for the bulk limit: a journal written before
    /// bulk delivery sent every event alone, and decisions folded from it must not batch.
    ///
    /// Fields 11 and 12 mark rules of format 1.2 (a delivered bulk resolved in one record) and
    /// 1.3 (an executed track's gate decision in its eventBatched): written as every journal
    /// since 1.3 has them. Readers take no rule from them (they are read, and checked to be
    /// booleans): `replay recheck` lifts an older journal's decisions to today's shape instead
    /// (ReplayKit's `RecordedDecisionsUpcast`).
    static let layout = ValueLayout(
        ValueField(1, "gateCapacity", \EngineRules.gateCapacity, .int, .defaulted(usual.gateCapacity)),
        ValueField(2, "disableDurabilityBoundMilliseconds", \EngineRules.disableDurabilityBoundMilliseconds, .signed,
                   .defaulted(usual.disableDurabilityBoundMilliseconds)),
        ValueField(3, "moduleHookBoundMilliseconds", \EngineRules.moduleHookBoundMilliseconds, .signed,
                   .defaulted(usual.moduleHookBoundMilliseconds)),
        ValueField(4, "pendingEvents", \EngineRules.pendingEvents, .message, .defaulted(usual.pendingEvents)),
        ValueField(5, "gateByteCapacity", \EngineRules.gateByteCapacity, .int, .defaulted(usual.gateByteCapacity)),
        ValueField(6, "queueCapacity", \EngineRules.queueCapacity, .int, .defaulted(usual.queueCapacity)),
        ValueField(7, "queueByteCapacity", \EngineRules.queueByteCapacity, .int, .defaulted(usual.queueByteCapacity)),
        ValueField(8, "authProviderBoundMilliseconds", \EngineRules.authProviderBoundMilliseconds, .signed,
                   .defaulted(usual.authProviderBoundMilliseconds)),
        ValueField(9, "bulkEventLimit", \EngineRules.bulkEventLimit, .int, .defaulted(1)),
        ValueField(10, "bulkByteLimit", \EngineRules.bulkByteLimit, .int, .defaulted(usual.bulkByteLimit)),
        ValueField(11, "format 1.2 mark", { _ in true }, .bool, .defaulted(true)),
        ValueField(12, "format 1.3 mark", { _ in true }, .bool, .defaulted(true)),
        ValueField(13, "deliveryAgeLimitMilliseconds", \EngineRules.deliveryAgeLimitMilliseconds, .signed,
                   .defaulted(usual.deliveryAgeLimitMilliseconds)),
        make: { gate, disable, hook, pending, gateBytes, queue, queueBytes, auth, bulkEvents, bulkBytes, _, _, ageLimit in
            EngineRules(gateCapacity: gate, gateByteCapacity: gateBytes, queueCapacity: queue, queueByteCapacity: queueBytes,
                        disableDurabilityBoundMilliseconds: disable, moduleHookBoundMilliseconds: hook, pendingEvents: pending,
                        authProviderBoundMilliseconds: auth, bulkEventLimit: bulkEvents, bulkByteLimit: bulkBytes,
                        deliveryAgeLimitMilliseconds: ageLimit)
        })
    private static let usual = EngineRules()
}

extension ModuleDescriptor: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "name", \ModuleDescriptor.name, .string, .defaulted("")),
        ValueField(repeated: 2, "notifications", \ModuleDescriptor.notifications, .string),
        make: ModuleDescriptor.init(name:notifications:))
}

extension EngineStart: DeclaredFieldCodable {
    /// The monotonic clock's reading is fields 5 and 6, written only when there is one.
    static let layout = ValueLayout(
        ValueField(1, "sdkVersion", \EngineStart.sdkVersion, .string, .defaulted("")),
        ValueField(2, "restored", \EngineStart.restored, .bool, .defaulted(false)),
        ValueField(3, "options", \EngineStart.options, .message, .defaulted(EngineRules())),
        ValueField(repeated: 4, "modules", \EngineStart.modules, .message),
        ValueField(optional: 5, "clock", { $0.clock?.microseconds }, .signed),
        ValueField(optional: 6, "boot", { $0.clock?.boot }, .unsigned),
        make: { sdkVersion, restored, options, modules, monotonic, boot in
            EngineStart(sdkVersion: sdkVersion, restored: restored, options: options, modules: modules,
                        clock: monotonic.map { MonotonicReading(microseconds: $0, boot: boot) })
        })
}

// Hand-written: every call's `callReceived`, the busiest record, is read in one pass (a layout reads the message once per field).
extension ReceivedCall: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, id)
        writer.unsigned(2, caller)
        writer.message(3, call)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var id: CallID?, call: PublicCall?
        var caller: UInt64 = 0
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.message()
            case 2: caller = try field.unsigned()
            case 3: call = try field.message()
            default: break
            }
        }
        guard let id else { throw missing("call id") }
        guard let call else { throw missing("call") }
        self.init(id: id, caller: caller, call: call)
    }
}

// Hand-written: read with every `transportCompleted`; declared with its completion, `replay audit` took 1.8% more instructions.
extension TransportOutcome: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .response(let status, let code, let messageIDs, let message):
            writer.unsigned(1, 1); writer.int(2, status); writer.string(3, code); writer.strings(4, messageIDs)
            writer.string(6, message)
        case .networkError(let reason):
            writer.unsigned(1, 2); writer.string(5, reason)
        case .notSent(let reason):
            writer.unsigned(1, 3); writer.message(7, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .response(status: try fields.int(2) ?? 0, code: try fields.string(3), messageIDs: try fields.strings(4),
                                 message: try fields.string(6))
        case 2: self = .networkError(try fields.string(5) ?? "")
        case 3:
            self = .notSent(try fields.requiredMessage(7, "why the attempt was not sent"))
        default: throw fields.unknown("transport outcome")
        }
    }
}

// Hand-written: read for every answer (its repeated refusals and its outcome's message ids are each a scan when declared).
extension TransportCompletion: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, task)
        writer.int(2, attempt)
        writer.message(3, outcome)
        writer.messages(4, refusedEvents)
        if droppedMessageIDs > 0 { writer.int(5, droppedMessageIDs) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var task: TaskID?, outcome: TransportOutcome?
        var attempt = 0
        var refused: [RefusedEvent] = []
        var dropped = 0
        while let field = try reader.next() {
            switch field.number {
            case 1: task = try field.message()
            case 2: attempt = try field.int()
            case 3: outcome = try field.message()
            case 4: refused.append(try field.message())
            case 5: dropped = try field.int()
            default: break
            }
        }
        guard let task, let outcome else { throw missing("transport completion") }
        self.init(task: task, attempt: attempt, outcome: outcome, refusedEvents: refused, droppedMessageIDs: dropped)
    }
}

extension TeardownStepKind: DeclaredVariantCodable {
    /// The variants, by the steps they stand for: a tag each (field 1), no other field.
    private enum Wire {
        static let disablePush = ValueVariant<TeardownStepKind>(1, make: { .disablePush })
        static let deliverPending = ValueVariant<TeardownStepKind>(2, make: { .deliverPending })
        static let resetInApp = ValueVariant<TeardownStepKind>(3, make: { .resetInApp })
        static let resetEmbedded = ValueVariant<TeardownStepKind>(4, make: { .resetEmbedded })
        static let purgeQueue = ValueVariant<TeardownStepKind>(5, make: { .purgeQueue })
        static let clearIdentity = ValueVariant<TeardownStepKind>(6, make: { .clearIdentity })
        static let clearProjectStorage = ValueVariant<TeardownStepKind>(7, make: { .clearProjectStorage })
        static let releaseInstance = ValueVariant<TeardownStepKind>(8, make: { .releaseInstance })
        static let startInstance = ValueVariant<TeardownStepKind>(9, make: { .startInstance })
    }
    static let variants = VariantLayout("teardown step", [
        Wire.disablePush.reader, Wire.deliverPending.reader, Wire.resetInApp.reader, Wire.resetEmbedded.reader, Wire.purgeQueue.reader,
        Wire.clearIdentity.reader, Wire.clearProjectStorage.reader, Wire.releaseInstance.reader, Wire.startInstance.reader,
    ])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .disablePush: Wire.disablePush.write(to: &writer)
        case .deliverPending: Wire.deliverPending.write(to: &writer)
        case .resetInApp: Wire.resetInApp.write(to: &writer)
        case .resetEmbedded: Wire.resetEmbedded.write(to: &writer)
        case .purgeQueue: Wire.purgeQueue.write(to: &writer)
        case .clearIdentity: Wire.clearIdentity.write(to: &writer)
        case .clearProjectStorage: Wire.clearProjectStorage.write(to: &writer)
        case .releaseInstance: Wire.releaseInstance.write(to: &writer)
        case .startInstance: Wire.startInstance.write(to: &writer)
        }
    }
}

extension TimerPurpose: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let retry = ValueVariant(
            1, ValueField(2, "task", .message, .required), ValueField(3, "attempt", .int, .defaulted(0)), make: TimerPurpose.retry(_:attempt:))
        static let teardownBound = ValueVariant(
            2, ValueField(4, "switch", .message, .required), ValueField(5, "step", .message, .required), make: TimerPurpose.teardownBound)
        static let moduleHookBound = ValueVariant(3, ValueField(6, "hook", .unsigned, .defaulted(0)), make: TimerPurpose.moduleHookBound(hook:))
    }
    static let variants = VariantLayout("timer", [Wire.retry.reader, Wire.teardownBound.reader, Wire.moduleHookBound.reader])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .retry(let task, let attempt): Wire.retry.write(task, attempt, to: &writer)
        case .teardownBound(let id, let step): Wire.teardownBound.write(id, step, to: &writer)
        case .moduleHookBound(let hook): Wire.moduleHookBound.write(hook, to: &writer)
        }
    }
}

extension DurabilityConfirmation: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "request", \DurabilityConfirmation.request, .unsigned, .defaulted(0)),
        ValueField(optional: 2, "failure", \DurabilityConfirmation.failure, .string),
        make: DurabilityConfirmation.init(request:failure:))
}

extension ModuleHookCompletion: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "hook", \ModuleHookCompletion.hook, .unsigned, .defaulted(0)),
        ValueField(optional: 2, "failure", \ModuleHookCompletion.failure, .string),
        make: ModuleHookCompletion.init(hook:failure:))
}

extension AuthTokenReceipt: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "request", \AuthTokenReceipt.request, .unsigned, .defaulted(0)),
        ValueField(2, "project", \AuthTokenReceipt.project, .message, .required),
        ValueField(optional: 3, "failure", \AuthTokenReceipt.failure, .string),
        ValueField(4, "refused", \AuthTokenReceipt.refused, .bool, .leftOut(when: false)),
        make: AuthTokenReceipt.init(request:project:failure:refused:))
}

extension LinkResolution: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "job", \LinkResolution.job, .unsigned, .defaulted(0)),
        ValueField(optional: 2, "destination", \LinkResolution.destination, .string),
        ValueField(optional: 3, "attribution", \LinkResolution.attribution, .message),
        ValueField(optional: 4, "failure", \LinkResolution.failure, .string),
        make: LinkResolution.init(job:destination:attribution:failure:))
}

extension JournalGap: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "lostFacts", \JournalGap.lostFacts, .unsigned, .defaulted(0)),
        ValueField(2, "from", \JournalGap.from, .time, .defaultedToZero),
        ValueField(3, "to", \JournalGap.to, .time, .defaultedToZero),
        ValueField(4, "reason", \JournalGap.reason, .string, .defaulted("")),
        ValueField(optional: 5, "firstLostSequence", \JournalGap.firstLostSequence, .unsigned),
        make: JournalGap.init(lostFacts:from:to:reason:firstLostSequence:))
}

extension NotSentReason: DeclaredVariantCodable {
    /// The variants, by the cases they stand for.
    private enum Wire {
        static let noToken = ValueVariant(1, ValueField(2, "reason", .string, .defaulted("")), make: NotSentReason.noToken)
        static let tokenRefused = ValueVariant(2, ValueField(2, "reason", .string, .defaulted("")), make: NotSentReason.tokenRefused)
        static let noAPIKey = ValueVariant<NotSentReason>(3, make: { .noAPIKey })
        static let noAuthProvider = ValueVariant<NotSentReason>(4, make: { .noAuthProvider })
        static let invalidEndpoint = ValueVariant(5, ValueField(2, "reason", .string, .defaulted("")), make: NotSentReason.invalidEndpoint)
    }
    static let variants = VariantLayout("reason an attempt was not sent", [
        Wire.noToken.reader, Wire.tokenRefused.reader, Wire.noAPIKey.reader, Wire.noAuthProvider.reader, Wire.invalidEndpoint.reader,
    ])

    func encode(to writer: inout FieldWriter) {
        switch self {
        case .noToken(let reason): Wire.noToken.write(reason, to: &writer)
        case .tokenRefused(let reason): Wire.tokenRefused.write(reason, to: &writer)
        case .noAPIKey: Wire.noAPIKey.write(to: &writer)
        case .noAuthProvider: Wire.noAuthProvider.write(to: &writer)
        case .invalidEndpoint(let reason): Wire.invalidEndpoint.write(reason, to: &writer)
        }
    }
}
