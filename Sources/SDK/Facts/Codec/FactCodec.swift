import Journal

/// Encodes facts as journal records (a kind and a tagged-field payload) and back.
///
/// Decoding never traps: unknown kinds and unknown variants become ``Fact/unknown(kind:payload:)``
/// (a newer SDK wrote them), malformed payloads throw ``CodecError`` with the offset.
public enum FactCodec {
    public static func kind(of fact: Fact) -> UInt32 {
        switch fact {
        case .engineStarted: FactKind.engineStarted.rawValue
        case .callReceived: FactKind.callReceived.rawValue
        case .transportCompleted: FactKind.transportCompleted.rawValue
        case .timerFired: FactKind.timerFired.rawValue
        case .durabilityConfirmed: FactKind.durabilityConfirmed.rawValue
        case .moduleHookCompleted: FactKind.moduleHookCompleted.rawValue
        case .authTokenReceived: FactKind.authTokenReceived.rawValue
        case .callbacksDelivered: FactKind.callbacksDelivered.rawValue
        case .notificationReceived: FactKind.notificationReceived.rawValue
        case .engineStopping: FactKind.engineStopping.rawValue
        case .linkResolved: FactKind.linkResolved.rawValue
        case .journalGap: FactKind.journalGap.rawValue
        case .linkResolutionStarted: FactKind.linkResolutionStarted.rawValue
        case .staleResultRefused: FactKind.staleResultRefused.rawValue
        case .switchCancelled: FactKind.switchCancelled.rawValue
        case .initialized: FactKind.initialized.rawValue
        case .gateDecided: FactKind.gateDecided.rawValue
        case .callRejected: FactKind.callRejected.rawValue
        case .identityChanged: FactKind.identityChanged.rawValue
        case .pushTokenChanged: FactKind.pushTokenChanged.rawValue
        case .attributionChanged: FactKind.attributionChanged.rawValue
        case .attributionRefused: FactKind.attributionRefused.rawValue
        case .unknownUserEventHeld: FactKind.unknownUserEventHeld.rawValue
        case .unknownUserSessionCounted: FactKind.unknownUserSessionCounted.rawValue
        case .unknownUserEventsReleased: FactKind.unknownUserEventsReleased.rawValue
        case .taskQueued: FactKind.taskQueued.rawValue
        case .taskDispatched: FactKind.taskDispatched.rawValue
        case .taskCompleted: FactKind.taskCompleted.rawValue
        case .timerSet: FactKind.timerSet.rawValue
        case .callResolved: FactKind.callResolved.rawValue
        case .authRefreshRequested: FactKind.authRefreshRequested.rawValue
        case .authRefreshFinished: FactKind.authRefreshFinished.rawValue
        case .moduleEventDelivered: FactKind.moduleEventDelivered.rawValue
        case .moduleHookStarted: FactKind.moduleHookStarted.rawValue
        case .moduleHookFinished: FactKind.moduleHookFinished.rawValue
        case .messagesStored: FactKind.messagesStored.rawValue
        case .storageCleared: FactKind.storageCleared.rawValue
        case .durabilityRequested: FactKind.durabilityRequested.rawValue
        case .switchRouted: FactKind.switchRouted.rawValue
        case .switchStarted: FactKind.switchStarted.rawValue
        case .teardownStepBegan: FactKind.teardownStepBegan.rawValue
        case .teardownStepFinished: FactKind.teardownStepFinished.rawValue
        case .switchLanded: FactKind.switchLanded.rawValue
        case .unknown(let kind, _): kind
        }
    }

    /// The fact's payload bytes.
    public static func payload(of fact: Fact) -> [UInt8] {
        var writer = FieldWriter()
        switch fact {
        case .engineStarted(let start): start.encode(to: &writer)
        case .callReceived(let call): call.encode(to: &writer)
        case .transportCompleted(let completion): completion.encode(to: &writer)
        case .timerFired(let purpose): purpose.encode(to: &writer)
        case .durabilityConfirmed(let confirmation): confirmation.encode(to: &writer)
        case .moduleHookCompleted(let completion): completion.encode(to: &writer)
        case .authTokenReceived(let receipt): receipt.encode(to: &writer)
        case .callbacksDelivered(let id): id.encode(to: &writer)
        case .notificationReceived(let name): writer.string(1, name)
        case .engineStopping: break
        case .linkResolved(let resolution): resolution.encode(to: &writer)
        case .journalGap(let gap): gap.encode(to: &writer)
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            writer.unsigned(1, job); writer.message(2, call); writer.string(3, url); writer.message(4, project); writer.unsigned(5, generation)
        case .staleResultRefused(let job, let what, let startedIn, let current):
            writer.unsigned(1, job); writer.string(2, what); writer.unsigned(3, startedIn); writer.unsigned(4, current)
        case .switchCancelled(let id, let reason):
            writer.message(1, id); writer.string(2, reason)
        case .initialized(let project, let generation):
            writer.message(1, project); writer.unsigned(2, generation)
        case .gateDecided(let call, let decision):
            writer.message(1, call); writer.message(2, decision)
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
        case .taskQueued(let task):
            task.encode(to: &writer)
        case .taskDispatched(let task, let attempt):
            writer.message(1, task); writer.int(2, attempt)
        case .taskCompleted(let task, let outcome):
            writer.message(1, task); writer.message(2, outcome)
        case .timerSet(let purpose, let due):
            writer.message(1, purpose); writer.signed(2, due.microsecondsSince1970)
        case .callResolved(let call, let outcome):
            writer.message(1, call); writer.message(2, outcome)
        case .authRefreshRequested(let project, let request):
            writer.message(1, project); writer.unsigned(2, request)
        case .authRefreshFinished(let project, let request, let failure):
            writer.message(1, project); writer.unsigned(2, request); writer.string(3, failure)
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
        case .durabilityRequested(let request, let purpose):
            writer.unsigned(1, request); writer.message(2, purpose)
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
        case .unknown(_, let payload):
            return payload
        }
        return writer.bytes
    }

    /// Decodes a record's payload as the fact of `kind`.
    public static func decode(kind: UInt32, payload: some Collection<UInt8>) throws(CodecError) -> Fact {
        let bytes = Array(payload)
        guard let known = FactKind(rawValue: kind) else { return .unknown(kind: kind, payload: bytes) }
        var reader = FieldReader(bytes)
        do {
            return try decode(known, &reader)
        } catch where error.isUnknownVariant {
            return .unknown(kind: kind, payload: bytes)
        }
    }

    private static func decode(_ kind: FactKind, _ reader: inout FieldReader) throws(CodecError) -> Fact {
        switch kind {
        case .engineStarted: return .engineStarted(try EngineStart(from: &reader))
        case .callReceived: return .callReceived(try ReceivedCall(from: &reader))
        case .transportCompleted: return .transportCompleted(try TransportCompletion(from: &reader))
        case .timerFired: return .timerFired(try TimerPurpose(from: &reader))
        case .durabilityConfirmed: return .durabilityConfirmed(try DurabilityConfirmation(from: &reader))
        case .moduleHookCompleted: return .moduleHookCompleted(try ModuleHookCompletion(from: &reader))
        case .authTokenReceived: return .authTokenReceived(try AuthTokenReceipt(from: &reader))
        case .callbacksDelivered: return .callbacksDelivered(try SwitchID(from: &reader))
        case .taskQueued: return .taskQueued(try DeliveryTask(from: &reader))
        case .engineStopping: return .engineStopping
        case .linkResolved: return .linkResolved(try LinkResolution(from: &reader))
        case .journalGap: return .journalGap(try JournalGap(from: &reader))
        default: break
        }
        let fields = try FieldsByNumber(&reader)
        switch kind {
        case .notificationReceived:
            return .notificationReceived(try fields.string(1) ?? "")
        case .initialized:
            return .initialized(project: try fields.required(1, "project"), generation: try fields.unsigned(2) ?? 0)
        case .gateDecided:
            return .gateDecided(call: try fields.required(1, "call"), decision: try fields.required(2, "decision"))
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
        case .taskDispatched:
            return .taskDispatched(task: try fields.required(1, "task"), attempt: try fields.int(2) ?? 0)
        case .taskCompleted:
            return .taskCompleted(task: try fields.required(1, "task"), outcome: try fields.required(2, "outcome"))
        case .timerSet:
            return .timerSet(try fields.required(1, "timer"), due: JournalTime(microsecondsSince1970: try fields.signed(2) ?? 0))
        case .callResolved:
            return .callResolved(call: try fields.required(1, "call"), outcome: try fields.required(2, "outcome"))
        case .authRefreshRequested:
            return .authRefreshRequested(project: try fields.required(1, "project"), request: try fields.unsigned(2) ?? 0)
        case .authRefreshFinished:
            return .authRefreshFinished(project: try fields.required(1, "project"), request: try fields.unsigned(2) ?? 0,
                                        failure: try fields.string(3))
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
        case .durabilityRequested:
            return .durabilityRequested(request: try fields.unsigned(1) ?? 0, purpose: try fields.required(2, "purpose"))
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
        case .linkResolutionStarted:
            return .linkResolutionStarted(job: try fields.unsigned(1) ?? 0, call: try fields.required(2, "call"),
                                          url: try fields.string(3) ?? "", project: try fields.required(4, "project"),
                                          generation: try fields.unsigned(5) ?? 0)
        case .staleResultRefused:
            return .staleResultRefused(job: try fields.unsigned(1) ?? 0, what: try fields.string(2) ?? "",
                                       startedIn: try fields.unsigned(3) ?? 0, current: try fields.unsigned(4) ?? 0)
        default:
            throw CodecError("kind \(kind) not handled", offset: 0)
        }
    }
}

/// All fields of a message by number (repeated ones kept in order).
struct FieldsByNumber {
    private var fields: [Int: [FieldReader.Field]] = [:]

    init(_ reader: inout FieldReader) throws(CodecError) {
        while let field = try reader.next() { fields[field.number, default: []].append(field) }
    }

    private func last(_ number: Int) -> FieldReader.Field? { fields[number]?.last }

    func string(_ number: Int) throws(CodecError) -> String? { try last(number)?.string() }
    func strings(_ number: Int) throws(CodecError) -> [String] {
        var values: [String] = []
        for field in fields[number] ?? [] { values.append(try field.string()) }
        return values
    }
    func unsigned(_ number: Int) throws(CodecError) -> UInt64? { try last(number)?.unsigned() }
    func signed(_ number: Int) throws(CodecError) -> Int64? { try last(number)?.signed() }
    func int(_ number: Int) throws(CodecError) -> Int? { try last(number)?.int() }
    func bool(_ number: Int) throws(CodecError) -> Bool { try last(number)?.bool() ?? false }
    func message<Value: FieldCodable>(_ number: Int, _ type: Value.Type = Value.self) throws(CodecError) -> Value? {
        try last(number)?.message(Value.self)
    }
    func required<Value: FieldCodable>(_ number: Int, _ name: String, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let value: Value = try message(number) else { throw missing(name) }
        return value
    }
}

extension SwitchResult {
    /// How `switchLanded` records the result: 1 clean, 2 with warnings (a landed switch is
    /// never one of the stopped cases).
    var landingCode: UInt64 { self == .switchedCleanly ? 1 : 2 }
}
