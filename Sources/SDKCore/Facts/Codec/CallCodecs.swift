import Journal

// Tagged-field encodings of the input payloads. Variant tags and field
// numbers are part of the journal format: never reuse or renumber; add new ones.

extension PendingEventsRule: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .purge: writer.unsigned(1, 1)
        case .deliverToOutgoing(let timeout): writer.unsigned(1, 2); writer.signed(2, timeout)
        case .keepForOutgoing: writer.unsigned(1, 3)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .purge
        case 2: self = .deliverToOutgoing(timeoutMilliseconds: try fields.signed(2) ?? 0)
        case 3: self = .keepForOutgoing
        default: throw fields.unknown("pending-events rule")
        }
    }
}

extension EngineRules: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.int(1, gateCapacity)
        writer.signed(2, disableDurabilityBoundMilliseconds)
        writer.signed(3, moduleHookBoundMilliseconds)
        writer.message(4, pendingEvents)
        writer.int(5, gateByteCapacity)
        writer.int(6, queueCapacity)
        writer.int(7, queueByteCapacity)
        writer.signed(8, authProviderBoundMilliseconds)
        writer.int(9, bulkEventLimit)
        writer.int(10, bulkByteLimit)
        // Fields 11 and 12 mark rules of format 1.2 (a delivered bulk resolved in one record) and
        // 1.3 (an executed track's gate decision in its eventBatched): written as every journal
        // since 1.3 has them. Readers take no rule from them: `replay recheck` lifts an older
        // journal's decisions to today's shape instead (ReplayKit's `RecordedDecisionsUpcast`).
        writer.bool(11, true)
        writer.bool(12, true)
        writer.signed(13, deliveryAgeLimitMilliseconds)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init()
        // A journal written before bulk delivery sent every event alone: decisions folded from
        // it must not batch.
        bulkEventLimit = 1
        while let field = try reader.next() {
            switch field.number {
            case 1: gateCapacity = try field.int()
            case 2: disableDurabilityBoundMilliseconds = try field.signed()
            case 3: moduleHookBoundMilliseconds = try field.signed()
            case 4: pendingEvents = try field.message()
            case 5: gateByteCapacity = try field.int()
            case 6: queueCapacity = try field.int()
            case 7: queueByteCapacity = try field.int()
            case 8: authProviderBoundMilliseconds = try field.signed()
            case 9: bulkEventLimit = try field.int()
            case 10: bulkByteLimit = try field.int()
            // The format marks of 1.2 and 1.3 (see `encode`): read, and checked to be booleans.
            case 11, 12: _ = try field.bool()
            case 13: deliveryAgeLimitMilliseconds = try field.signed()
            default: break
            }
        }
    }
}

extension ModuleDescriptor: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.string(1, name)
        writer.strings(2, notifications)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init(name: "", notifications: [])
        while let field = try reader.next() {
            switch field.number {
            case 1: name = try field.string()
            case 2: notifications.append(try field.string())
            default: break
            }
        }
    }
}

extension EngineStart: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.string(1, sdkVersion)
        writer.bool(2, restored)
        writer.message(3, options)
        writer.messages(4, modules)
        if let clock {
            writer.signed(5, clock.microseconds)
            writer.unsigned(6, clock.boot)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init(sdkVersion: "", restored: false, options: EngineRules())
        var monotonic: Int64?
        var boot: UInt64?
        while let field = try reader.next() {
            switch field.number {
            case 1: sdkVersion = try field.string()
            case 2: restored = try field.bool()
            case 3: options = try field.message()
            case 4: modules.append(try field.message())
            case 5: monotonic = try field.signed()
            case 6: boot = try field.unsigned()
            default: break
            }
        }
        clock = monotonic.map { MonotonicReading(microseconds: $0, boot: boot) }
    }
}

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

extension TeardownStepKind: FieldCodable {
    private static let tags: [TeardownStepKind: UInt64] = [
        .disablePush: 1, .deliverPending: 2, .resetInApp: 3, .resetEmbedded: 4, .purgeQueue: 5,
        .clearIdentity: 6, .clearProjectStorage: 7, .releaseInstance: 8, .startInstance: 9,
    ]

    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, Self.tags[self]!)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        guard let found = Self.tags.first(where: { $0.value == fields.tag })?.key else { throw fields.unknown("teardown step") }
        self = found
    }
}

extension TimerPurpose: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .retry(let task, let attempt):
            writer.unsigned(1, 1); writer.message(2, task); writer.int(3, attempt)
        case .teardownBound(let id, let step):
            writer.unsigned(1, 2); writer.message(4, id); writer.message(5, step)
        case .moduleHookBound(let hook):
            writer.unsigned(1, 3); writer.unsigned(6, hook)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .retry(try fields.requiredMessage(2, "task"), attempt: try fields.int(3) ?? 0)
        case 2: self = .teardownBound(try fields.requiredMessage(4, "switch"), try fields.requiredMessage(5, "step"))
        case 3: self = .moduleHookBound(hook: try fields.unsigned(6) ?? 0)
        default: throw fields.unknown("timer")
        }
    }
}

extension DurabilityConfirmation: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, request)
        writer.string(2, failure)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init(request: 0, failure: nil)
        while let field = try reader.next() {
            switch field.number {
            case 1: request = try field.unsigned()
            case 2: failure = try field.string()
            default: break
            }
        }
    }
}

extension ModuleHookCompletion: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, hook)
        writer.string(2, failure)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init(hook: 0)
        while let field = try reader.next() {
            switch field.number {
            case 1: hook = try field.unsigned()
            case 2: failure = try field.string()
            default: break
            }
        }
    }
}

extension AuthTokenReceipt: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, request)
        writer.message(2, project)
        writer.string(3, failure)
        if refused { writer.bool(4, true) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var request: UInt64 = 0
        var project: ProjectFingerprint?
        var failure: String?
        var refused = false
        while let field = try reader.next() {
            switch field.number {
            case 1: request = try field.unsigned()
            case 2: project = try field.message()
            case 3: failure = try field.string()
            case 4: refused = try field.bool()
            default: break
            }
        }
        guard let project else { throw missing("project") }
        self.init(request: request, project: project, failure: failure, refused: refused)
    }
}

extension LinkResolution: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, job)
        writer.string(2, destination)
        writer.message(3, attribution)
        writer.string(4, failure)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(job: try fields.unsigned(1) ?? 0, destination: try fields.string(2), attribution: try fields.message(3),
                  failure: try fields.string(4))
    }
}

extension JournalGap: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, lostFacts)
        writer.signed(2, from.microsecondsSince1970)
        writer.signed(3, to.microsecondsSince1970)
        writer.string(4, reason)
        writer.unsigned(5, firstLostSequence)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(lostFacts: try fields.unsigned(1) ?? 0, from: JournalTime(microsecondsSince1970: try fields.signed(2) ?? 0),
                  to: JournalTime(microsecondsSince1970: try fields.signed(3) ?? 0), reason: try fields.string(4) ?? "",
                  firstLostSequence: try fields.unsigned(5))
    }
}

extension NotSentReason: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .noToken(let reason): writer.unsigned(1, 1); writer.string(2, reason)
        case .tokenRefused(let reason): writer.unsigned(1, 2); writer.string(2, reason)
        case .noAPIKey: writer.unsigned(1, 3)
        case .noAuthProvider: writer.unsigned(1, 4)
        case .invalidEndpoint(let reason): writer.unsigned(1, 5); writer.string(2, reason)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .noToken(try fields.string(2) ?? "")
        case 2: self = .tokenRefused(try fields.string(2) ?? "")
        case 3: self = .noAPIKey
        case 4: self = .noAuthProvider
        case 5: self = .invalidEndpoint(try fields.string(2) ?? "")
        default: throw fields.unknown("reason an attempt was not sent")
        }
    }
}
