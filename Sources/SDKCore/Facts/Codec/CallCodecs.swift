import Journal

// Tagged-field encodings of public calls and of the input payloads. Variant tags and field
// numbers are part of the journal format: never reuse or renumber; add new ones.

extension PublicCall: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .initialize(let project):
            writer.unsigned(1, 1); writer.message(2, project)
        case .switchProject(let project):
            writer.unsigned(1, 2); writer.message(2, project)
        case .setEmail(let email):
            writer.unsigned(1, 3); writer.string(3, email)
        case .setUserId(let userID):
            writer.unsigned(1, 4); writer.string(3, userID)
        case .updateEmail(let email):
            writer.unsigned(1, 5); writer.string(3, email)
        case .updateUser(let dataFields, let merge):
            writer.unsigned(1, 6); writer.message(4, DataObject(dataFields)); writer.bool(5, merge)
        case .updateCart(let items):
            writer.unsigned(1, 7); writer.message(6, CommerceItems(items))
        case .trackPurchase(let total, let items, let dataFields):
            writer.unsigned(1, 8); writer.double(7, total); writer.message(6, CommerceItems(items))
            writer.message(4, dataFields.map(DataObject.init))
        case .track(let event, let dataFields):
            Self.encodeTrack(event, to: &writer) { $0.message(4, dataFields.map(DataObject.init)) }
        case .registerToken(let token):
            writer.unsigned(1, 10); writer.string(3, token)
        case .disableDevice:
            writer.unsigned(1, 11)
        case .logoutUser:
            writer.unsigned(1, 12)
        case .trackPushOpen(let open):
            writer.unsigned(1, 13); writer.message(8, open)
        case .handlePush(let payload):
            writer.unsigned(1, 14); writer.message(4, DataObject(payload))
        case .inAppFetch(let count):
            writer.unsigned(1, 15); writer.int(9, count)
        case .inAppOpen(let messageID):
            writer.unsigned(1, 16); writer.string(10, messageID)
        case .inAppClick(let messageID, let url):
            writer.unsigned(1, 17); writer.string(10, messageID); writer.string(11, url)
        case .inAppClose(let messageID, let url):
            writer.unsigned(1, 18); writer.string(10, messageID); writer.string(11, url)
        case .inAppDelivery(let messageID):
            writer.unsigned(1, 19); writer.string(10, messageID)
        case .inAppConsume(let messageID):
            writer.unsigned(1, 20); writer.string(10, messageID)
        case .embeddedFetch:
            writer.unsigned(1, 21)
        case .embeddedReceived(let messageID):
            writer.unsigned(1, 22); writer.string(10, messageID)
        case .embeddedClick(let messageID, let buttonID, let url):
            writer.unsigned(1, 23); writer.string(10, messageID); writer.string(12, buttonID); writer.string(11, url)
        case .setAttribution(let info):
            writer.unsigned(1, 24); writer.message(13, info)
        case .flush:
            writer.unsigned(1, 25)
        case .handleUniversalLink(let url):
            writer.unsigned(1, 26); writer.string(14, url)
        case .oversized(let name, let reason):
            writer.unsigned(1, 27); writer.string(15, name.rawValue); writer.string(16, reason)
        }
    }

    /// A `track` call's fields, its data fields written by `dataFields`: one spelling for the
    /// variant, whether the data fields are encoded here or copied from a body.
    @inline(__always)
    static func encodeTrack(_ event: String, to writer: inout FieldWriter, dataFields: (inout FieldWriter) -> Void) {
        writer.unsigned(1, 9); writer.string(3, event); dataFields(&writer)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        let object = { (number: Int) throws(CodecError) -> [String: DataValue]? in
            (try fields.message(number, DataObject.self))?.members
        }
        switch fields.tag {
        case 1: self = .initialize(try fields.requiredMessage(2, "project"))
        case 2: self = .switchProject(try fields.requiredMessage(2, "project"))
        case 3: self = .setEmail(try fields.string(3))
        case 4: self = .setUserId(try fields.string(3))
        case 5: self = .updateEmail(try fields.requiredString(3, "email"))
        case 6: self = .updateUser(dataFields: try object(4) ?? [:], mergeNestedObjects: try fields.bool(5))
        case 7: self = .updateCart(items: (try fields.message(6, CommerceItems.self))?.items ?? [])
        case 8: self = .trackPurchase(total: try fields.double(7) ?? 0, items: (try fields.message(6, CommerceItems.self))?.items ?? [],
                                      dataFields: try object(4))
        case 9: self = .track(event: try fields.requiredString(3, "event"), dataFields: try object(4))
        case 10: self = .registerToken(try fields.requiredString(3, "token"))
        case 11: self = .disableDevice
        case 12: self = .logoutUser
        case 13: self = .trackPushOpen(try fields.requiredMessage(8, "push open"))
        case 14: self = .handlePush(payload: try object(4) ?? [:])
        case 15: self = .inAppFetch(count: try fields.int(9) ?? 0)
        case 16: self = .inAppOpen(messageID: try fields.requiredString(10, "message id"))
        case 17: self = .inAppClick(messageID: try fields.requiredString(10, "message id"), url: try fields.string(11) ?? "")
        case 18: self = .inAppClose(messageID: try fields.requiredString(10, "message id"), url: try fields.string(11))
        case 19: self = .inAppDelivery(messageID: try fields.requiredString(10, "message id"))
        case 20: self = .inAppConsume(messageID: try fields.requiredString(10, "message id"))
        case 21: self = .embeddedFetch
        case 22: self = .embeddedReceived(messageID: try fields.requiredString(10, "message id"))
        case 23: self = .embeddedClick(messageID: try fields.requiredString(10, "message id"), buttonID: try fields.string(12),
                                       url: try fields.string(11))
        case 24: self = .setAttribution(try fields.message(13))
        case 25: self = .flush
        case 26: self = .handleUniversalLink(url: try fields.requiredString(14, "url"))
        case 27:
            let name = try fields.requiredString(15, "call name")
            guard let known = CallName(rawValue: name) else { throw fields.unknown("call") }
            self = .oversized(known, reason: try fields.string(16) ?? "")
        default: throw fields.unknown("call")
        }
    }
}

extension PendingEventsRule: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .purge: writer.unsigned(1, 1)
        case .deliverToOutgoing(let timeout): writer.unsigned(1, 2); writer.signed(2, timeout)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .purge
        case 2: self = .deliverToOutgoing(timeoutMilliseconds: try fields.signed(2) ?? 0)
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
        if resolvesBulkAtOnce { writer.bool(11, true) }
        if recordsGateWithBatchedEvent { writer.bool(12, true) }
        writer.signed(13, deliveryAgeLimitMilliseconds)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init()
        // A journal written before bulk delivery sent every event alone: decisions folded from
        // it must not batch.
        bulkEventLimit = 1
        // Nor did one written before 1.2 resolve a bulk's calls in one record, nor one written
        // before 1.3 record an executed track's gate decision in its eventBatched.
        resolvesBulkAtOnce = false
        recordsGateWithBatchedEvent = false
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
            case 11: resolvesBulkAtOnce = try field.bool()
            case 12: recordsGateWithBatchedEvent = try field.bool()
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
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init(sdkVersion: "", restored: false, options: EngineRules())
        while let field = try reader.next() {
            switch field.number {
            case 1: sdkVersion = try field.string()
            case 2: restored = try field.bool()
            case 3: options = try field.message()
            case 4: modules.append(try field.message())
            default: break
            }
        }
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
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        switch fields.tag {
        case 1: self = .response(status: try fields.int(2) ?? 0, code: try fields.string(3), messageIDs: try fields.strings(4),
                                 message: try fields.string(6))
        case 2: self = .networkError(try fields.string(5) ?? "")
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
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var request: UInt64 = 0
        var project: ProjectFingerprint?
        var failure: String?
        while let field = try reader.next() {
            switch field.number {
            case 1: request = try field.unsigned()
            case 2: project = try field.message()
            case 3: failure = try field.string()
            default: break
            }
        }
        guard let project else { throw missing("project") }
        self.init(request: request, project: project, failure: failure)
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
