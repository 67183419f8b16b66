import Journal
import SDK

/// Facts and the values they carry as JSON, for `--json` output and NDJSON exports.
///
/// Keys are snake_case and appear in a fixed order; projects are fingerprints in hex, calls
/// their full UUID, tasks and switches their numbers.
package enum FactJSON {
    /// The members describing `fact` (without `seq`, `time` and `kind`, which callers add).
    static func members(_ fact: Fact) -> [(String, JSONValue)] {
        JSONMemberTree.members { write(fact, into: &$0) }
    }

    /// Adds the members describing `fact` to `sink`, in order: what ``members(_:)-(Fact)`` holds.
    /// Each declared field (``FactDeclaration``) in its JSON order, as its value shows.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ fact: Fact, into sink: inout Sink) {
        if writeBusiest(fact, into: &sink) { return }
        writeDeclared(fact, into: &sink)
    }

    /// ``write(_:into:)-(Fact,_)`` as the fact's declaration lays it out (the busiest kinds too,
    /// which ``writeBusiest(_:into:)`` writes directly): each field in its JSON order. A fact of
    /// a kind this build does not know shows its kind and its payload's size.
    static func writeDeclared<Sink: JSONMemberSink & ~Copyable>(_ fact: Fact, into sink: inout Sink) {
        if case .unknown(let kind, let payload) = fact {
            sink.add("unknown_kind", unsigned: UInt64(kind))
            sink.add("bytes", opaquePayload: payload)
            return
        }
        guard let declaration = fact.declaration, declaration.reordersJSON else {
            fact.forEachField { field, value in write(value, of: field, into: &sink) }
            return
        }
        var values: [FactFieldValue] = []
        fact.forEachField { _, value in values.append(value) }
        for index in declaration.jsonOrder { write(values[index], of: declaration.fields[index], into: &sink) }
    }

    /// Adds the members of one field of a fact: under the field's key, or, for a value made of
    /// several parts (an input's payload, a retry's reason), the value's own members.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ value: FactFieldValue, of field: FactField, into sink: inout Sink) {
        let key = JSONKey(stringLiteral: field.key)
        switch value {
        case .number(let number): sink.add(key, unsigned: number)
        case .attempt(let attempt): sink.add(key, integer: Int64(attempt))
        case .microseconds(let microseconds): sink.add(key, integer: microseconds)
        case .time(let time): sink.add(key, string: time.description)
        case .text(let text):
            switch field.text {
            case .personal(let token)?: sink.add(key, personal: text, kind: token.rawValue)
            case .freeText?, .url?: sink.add(key, freeText: text)
            case .name?, .identifier?, nil: sink.add(key, string: text)
            }
        case .texts(let texts):
            switch field.text {
            case .freeText?, .url?, .personal?: sink.add(key, freeTexts: texts)
            case .name?, .identifier?, nil: sink.add(key, .array(texts.map(JSONValue.string)))
            }
        case .call(let call): sink.add(key, call: call)
        case .calls(let calls): sink.add(key, .array(calls.map(callID)))
        case .task(let task): sink.add(key, task: task)
        case .switchID(let id): sink.add(key, switch: id)
        case .fingerprint(let project): sink.add(key, project: project)
        case .executedOn(let project): write(executedOn: project, key, into: &sink)
        case .project(let project): sink.add(key, projectRef(project))
        case .gateDecision(let decision): sink.addObject(key) { write(decision, into: &$0) }
        case .callOutcome(let outcome): sink.addObject(key) { write(outcome, into: &$0) }
        case .taskOutcome(let outcome): sink.addObject(key) { write(outcome, into: &$0) }
        case .deliveryTask(let task): sink.addObject(key) { write(task, into: &$0) }
        case .publicCall(let call): sink.addObject(key) { write(call, into: &$0) }
        case .timer(let purpose): sink.add(key, timer(purpose))
        case .routing(let routing): sink.add(key, self.routing(routing))
        case .teardownStep(let step): sink.add(key, string: step.rawValue)
        case .landing(let result): sink.add(key, string: Describe.result(result))
        case .moduleSignal(let signal): sink.add(key, moduleSignal(signal))
        case .durabilityWait(let wait): sink.add(key, durabilityWait(wait))
        case .attribution(let info): sink.add(key, .optional(info, attribution))
        case .messageKind(let kind): sink.add(key, string: kind.rawValue)
        case .storageScope(let scope): sink.add(key, string: scope.rawValue)
        case .backgroundTaskEnd(let reason): sink.add(key, string: reason.rawValue)
        case .stepOutcome(let outcome): sink.addObject(key) { write(outcome, into: &$0) }
        case .batchedEvent(let event): write(event, into: &sink)
        case .retryReason(let reason):
            switch reason {
            case .noResponse(let error):
                sink.add("reason", string: "no_response")
                sink.add("error", freeText: error)
            case .serverBusy(let error, let failures):
                sink.add("reason", string: "server_busy")
                sink.add("error", freeText: error)
                sink.add("failures", integer: Int64(failures))
            case .notSent(let why):
                sink.add("reason", string: "not_sent")
                write(why, into: &sink)
            }
        case .receivedCall(let received):
            write(received, into: &sink)
        case .engineStart(let start):
            sink.add("sdk_version", string: start.sdkVersion)
            sink.add("restored", bool: start.restored)
            sink.add("rules", rules(start.options))
            sink.add("modules", .array(start.modules.map { .object([("name", .string($0.name)),
                                                                     ("notifications", .array($0.notifications.map(JSONValue.string)))]) }))
        case .transportCompletion(let completion):
            sink.add("task", task: completion.task)
            sink.add("attempt", integer: Int64(completion.attempt))
            sink.addObject("outcome") { write(completion.outcome, into: &$0) }
            if !completion.refusedEvents.isEmpty {
                sink.add("refused_events", .array(completion.refusedEvents.map {
                    .object([("index", .integer(Int64($0.index))), ("reason", .string($0.reason))])
                }))
            }
            if completion.droppedMessageIDs > 0 { sink.add("dropped_message_ids", integer: Int64(completion.droppedMessageIDs)) }
        case .durabilityConfirmation(let confirmation):
            sink.add("request", unsigned: confirmation.request)
            sink.add("failure", freeText: confirmation.failure)
        case .hookCompletion(let completion):
            sink.add("hook", unsigned: completion.hook)
            sink.add("failure", freeText: completion.failure)
        case .authReceipt(let receipt):
            sink.add("request", unsigned: receipt.request)
            sink.add("project", project: receipt.project)
            sink.add("failure", freeText: receipt.failure)
        case .linkResolution(let resolution):
            sink.add("job", unsigned: resolution.job)
            sink.add("destination", freeText: resolution.destination)
            sink.add("attribution", .optional(resolution.attribution, attribution))
            sink.add("failure", freeText: resolution.failure)
        case .erasure(let erasure):
            sink.add("call", .optional(erasure.call, callID))
            let erased = erasure.erased
            sink.add("erased_records", unsigned: erased.records)
            if erased.records > 0 {
                sink.add("first_erased", unsigned: erased.firstSequence)
                sink.add("last_erased", unsigned: erased.lastSequence)
            }
            sink.add("erased_segments", unsigned: UInt64(truncatingIfNeeded: erased.segments))
            sink.add("erased_bytes", unsigned: UInt64(truncatingIfNeeded: erased.bytes))
            sink.add("failure", freeText: erased.failure)
        case .journalGap(let gap):
            sink.add("lost_facts", unsigned: gap.lostFacts)
            sink.add("from", string: gap.from.description)
            sink.add("to", string: gap.to.description)
            sink.add("reason", freeText: gap.reason)
            if let first = gap.firstLostSequence { sink.add("first_lost_sequence", unsigned: first) }
        }
    }

    /// The members of a received call: its id, its caller, and the call as `request`.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ received: ReceivedCall, into sink: inout Sink) {
        sink.add("call", call: received.id)
        sink.add("caller", unsigned: received.caller)
        sink.addObject("request") { write(received.call, into: &$0) }
    }

    /// `{"seq":…,"time":…,"kind":"…", …members}` for a decoded record. With `labels`, a fact's
    /// top-level `project` fingerprint is followed by its `project_label` (null without one).
    package static func object(_ record: DecodedRecord, extra: [(String, JSONValue)] = [], labels: ProjectLabels? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("seq", .unsigned(record.sequence)), ("time", .string(record.time.description)),
                                              ("kind", .string(record.kindName))]
        members += extra
        for member in self.members(record.content) {
            members.append(member)
            if let labels, case .fact = record.content, member.0 == "project", case .string(let hex) = member.1 {
                members.append(("project_label", labels.json(ProjectFingerprint(hex: hex))))
            }
        }
        return .object(members)
    }

    /// The members describing what a record holds: a fact's (``members(_:)``), a snapshot's
    /// `state`, or why it is `unreadable`.
    static func members(_ content: DecodedRecord.Content) -> [(String, JSONValue)] {
        JSONMemberTree.members { write(content, into: &$0) }
    }

    /// Adds the members of ``members(_:)-(DecodedRecord.Content)`` to `sink`, in order.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ content: DecodedRecord.Content, into sink: inout Sink) {
        switch content {
        case .fact(let fact): write(fact, into: &sink)
        case .snapshot(let state): sink.add("state", StateDocument.make(state))
        case .unreadable(let reason): sink.add("unreadable", string: reason)
        }
    }

    // MARK: - Values

    static func project(_ fingerprint: ProjectFingerprint) -> JSONValue { .string(fingerprint.hex) }
    static func callID(_ id: CallID) -> JSONValue { .string(id.uuid.lowercasedText) }
    /// Appends the JSON of ``callID(_:)`` without making its string (its text needs no escaping).
    static func writeCallID(_ id: CallID, to output: inout ScratchBytes) {
        output.append(UInt8(ascii: "\""))
        id.uuid.writeLowercasedText(to: &output)
        output.append(UInt8(ascii: "\""))
    }
    static func task(_ id: TaskID) -> JSONValue { .unsigned(id.number) }
    static func switchID(_ id: SwitchID) -> JSONValue { .unsigned(id.number) }

    static func projectRef(_ project: ProjectRef) -> JSONValue {
        .object([("fingerprint", .string(project.fingerprint.hex)), ("label", .optional(project.label, JSONValue.string)), ("region", .string(project.region)),
                 ("endpoint", .string(project.endpoint)), ("uses_jwt", .bool(project.usesJWT)),
                 ("retry", .object([("max_attempts", .integer(Int64(project.retry.maxAttempts))),
                                    ("base_delay_ms", .integer(project.retry.baseDelayMilliseconds)),
                                    ("max_delay_ms", .integer(project.retry.maxDelayMilliseconds)),
                                    ("jwt_refresh_budget", .integer(Int64(project.retry.jwtRefreshBudget)))]))])
    }

    static func rules(_ rules: EngineRules) -> JSONValue {
        let pending: JSONValue = switch rules.pendingEvents {
        case .purge: .string("purge")
        case .deliverToOutgoing(let timeout): .object([("deliver_to_outgoing_ms", .integer(timeout))])
        case .keepForOutgoing: .string("keep_for_outgoing")
        }
        return .object([("gate_capacity", .integer(Int64(rules.gateCapacity))),
                        ("gate_byte_capacity", .integer(Int64(rules.gateByteCapacity))),
                        ("queue_capacity", .integer(Int64(rules.queueCapacity))),
                        ("queue_byte_capacity", .integer(Int64(rules.queueByteCapacity))),
                        ("bulk_event_limit", .integer(Int64(rules.bulkEventLimit))),
                        ("bulk_byte_limit", .integer(Int64(rules.bulkByteLimit))),
                        ("disable_durability_bound_ms", .integer(rules.disableDurabilityBoundMilliseconds)),
                        ("module_hook_bound_ms", .integer(rules.moduleHookBoundMilliseconds)),
                        ("auth_provider_bound_ms", .integer(rules.authProviderBoundMilliseconds)),
                        ("delivery_age_limit_ms", .integer(rules.deliveryAgeLimitMilliseconds)),
                        ("pending_events", pending)])
    }

    static func data(_ value: DataValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .array(let elements): .array(elements.map(data))
        case .object(let members): data(members)
        }
    }

    static func data(_ members: [String: DataValue]) -> JSONValue {
        JSONMemberTree.object { write(data: members, into: &$0) }
    }

    /// Adds data fields to `sink` as ``data(_:)-([String:DataValue])`` holds them: keys sorted.
    static func write<Sink: JSONMemberSink & ~Copyable>(data members: [String: DataValue], into sink: inout Sink) {
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let text): sink.add(JSONKey(key), string: text)
            case .object(let nested): sink.addObject(JSONKey(key)) { write(data: nested, into: &$0) }
            default: sink.add(JSONKey(key), data(value))
            }
        }
    }

    static func items(_ items: [CommerceItem]) -> JSONValue {
        .array(items.map { item in
            .object([("id", .string(item.id)), ("name", .string(item.name)), ("price", .number(item.price)),
                     ("quantity", .integer(Int64(item.quantity))), ("sku", .optional(item.sku, JSONValue.string)),
                     ("data_fields", .optional(item.dataFields, data))])
        })
    }

    static func attribution(_ info: AttributionInfo) -> JSONValue {
        .object([("campaign_id", .integer(info.campaignID)), ("template_id", .integer(info.templateID)),
                 ("message_id", .string(info.messageID))])
    }

    /// A public call: its name and its arguments.
    static func call(_ call: PublicCall) -> JSONValue {
        JSONMemberTree.object { write(call, into: &$0) }
    }

    /// Adds the members of ``call(_:)`` to `sink`: its name, then each argument under its
    /// declared JSON key, personal and free-text values as their privacy class asks.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ call: PublicCall, into sink: inout Sink) {
        if case .track(let event, let dataFields) = call {
            // The busiest call skips the walk over its declaration (the same members:
            // `FactJSONDeclarationTests` compares the two for every call shape).
            sink.add("name", string: "track")
            sink.add("event", string: event)
            sink.add("data_fields", dataFields: dataFields)
            return
        }
        writeDeclared(call, into: &sink)
    }

    /// ``write(_:into:)-(PublicCall,_)`` as the call's declaration lays it out.
    static func writeDeclared<Sink: JSONMemberSink & ~Copyable>(_ call: PublicCall, into sink: inout Sink) {
        sink.add("name", string: call.name.rawValue)
        for (argument, value) in zip(call.declaration.arguments, call.arguments) {
            write(value, of: argument, into: &sink)
        }
    }

    private static func write<Sink: JSONMemberSink & ~Copyable>(_ value: ArgumentValue, of argument: ArgumentDeclaration, into sink: inout Sink) {
        let key = argument.jsonKey.map(JSONKey.init(stringLiteral:)) ?? JSONKey(argument.name)
        switch value {
        case .text(let text):
            switch argument.kind.privacy {
            case .personal: sink.add(key, personal: text, kind: argument.kind.tokenKind ?? "text")
            case .freeText: sink.add(key, freeText: text)
            case .identifier, .structural: sink.add(key, string: text)
            }
        case .callName(let name): sink.add(key, string: name.rawValue)
        case .count(let count): sink.add(key, integer: Int64(count))
        case .amount(let amount): sink.add(key, number: amount)
        case .flag(let flag): sink.add(key, bool: flag)
        case .dataFields(let members): sink.add(key, dataFields: members)
        case .items(let items): sink.add(key, items: items)
        case .project(let project): sink.add(key, projectRef(project))
        case .attribution(let info): sink.add(key, .optional(info, attribution))
        case .pushOpen(let open):
            sink.add("campaign_id", .optional(open.campaignID) { .integer($0) })
            sink.add("template_id", .optional(open.templateID) { .integer($0) })
            sink.add("message_id", string: open.messageID)
            sink.add("app_already_running", bool: open.appAlreadyRunning)
            sink.add("data_fields", dataFields: open.dataFields)
        }
    }

    /// Adds the members of a delivery task to `sink`: its number, call and project, its
    /// request's address, query and body, when it was made, and its user.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ task: DeliveryTask, into sink: inout Sink) {
        sink.add("id", unsigned: task.id.number)
        sink.add("call", call: task.call)
        sink.add("project", project: task.project)
        sink.add("region", string: task.region)
        sink.add("endpoint", string: task.endpoint)
        sink.add("path", string: task.path)
        sink.add("method", string: task.method.rawValue)
        sink.add("query", query: task.query)
        sink.add("body", body: task.body)
        sink.add("created_at", string: task.createdAt.description)
        switch task.user {
        case .email(let email)?: sink.add("user_email", personal: email, kind: "email")
        case .userID(let userID)?: sink.add("user_id", personal: userID, kind: "user")
        case nil: break
        }
    }

    /// Adds the members of a call's failure to `sink`: `failure`, its kind, then what it says.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ failure: CallFailure, into sink: inout Sink) {
        switch failure {
        case .rejected(let reason):
            sink.add("failure", string: "rejected")
            sink.add("reason", freeText: reason)
        case .notInitialized:
            sink.add("failure", string: "not_initialized")
        case .httpStatus(let status, let code, let message):
            sink.add("failure", string: "http_status")
            sink.add("status", integer: Int64(status))
            sink.add("code", string: code)
            sink.add("message", freeText: message)
        case .retriesExhausted(let reason):
            sink.add("failure", string: "retries_exhausted")
            sink.add("reason", freeText: reason)
        case .authentication(let reason):
            sink.add("failure", string: "authentication")
            sink.add("reason", freeText: reason)
        case .linkNotResolved(let reason):
            sink.add("failure", string: "link_not_resolved")
            sink.add("reason", freeText: reason)
        case .notDurable(let reason):
            sink.add("failure", string: "not_durable")
            sink.add("reason", freeText: reason)
        }
    }

    /// Adds the members of why a call was discarded to `sink`: `discard`, its kind, then what
    /// it carries.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ reason: DiscardReason, into sink: inout Sink) {
        switch reason {
        case .purgedByLogout:
            sink.add("discard", string: "purged_by_logout")
        case .purgedBySwitch(let id):
            sink.add("discard", string: "purged_by_switch")
            sink.add("switch", switch: id)
        case .undeliveredAtSwitch(let id):
            sink.add("discard", string: "undelivered_at_switch")
            sink.add("switch", switch: id)
        case .gateFull(let capacity):
            sink.add("discard", string: "gate_full")
            sink.add("capacity", integer: Int64(capacity))
        case .queueFull(let capacity):
            sink.add("discard", string: "queue_full")
            sink.add("capacity", integer: Int64(capacity))
        case .shutdown:
            sink.add("discard", string: "shutdown")
        case .consentDeclined:
            sink.add("discard", string: "consent_declined")
        case .erased:
            sink.add("discard", string: "erased")
        case .expired(let ageLimit):
            sink.add("discard", string: "expired")
            sink.add("age_limit_ms", integer: ageLimit.wholeMilliseconds)
        }
    }

    static func outcome(_ outcome: CallOutcome) -> JSONValue {
        JSONMemberTree.object { write(outcome, into: &$0) }
    }

    /// Adds the members of ``outcome(_:)`` to `sink`: an applied call's, or its task's outcome's
    /// with the project it was delivered to.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ outcome: CallOutcome, into sink: inout Sink) {
        switch outcome.parts {
        case .task(let task, let project):
            write(task, deliveredTo: project, into: &sink)
        case .applied(let project):
            sink.add("status", string: "applied")
            sink.add("project", project: project)
        }
    }

    static func taskOutcome(_ outcome: TaskOutcome) -> JSONValue {
        JSONMemberTree.object { write(outcome, into: &$0) }
    }

    /// Adds the members of ``taskOutcome(_:)`` to `sink`; `project`, a call's, is written as
    /// where it was delivered.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ outcome: TaskOutcome, deliveredTo project: ProjectFingerprint? = nil,
                                                        into sink: inout Sink) {
        switch outcome {
        case .delivered(let status):
            sink.add("status", string: "delivered")
            if let project { sink.add("project", project: project) }
            sink.add("http_status", integer: Int64(status))
        case .failed(let failure):
            sink.add("status", string: "failed")
            sink.addObject("failure") { write(failure, into: &$0) }
        case .discarded(let reason):
            sink.add("status", string: "discarded")
            sink.addObject("reason") { write(reason, into: &$0) }
        }
    }

    /// Adds the members of the gate's decision to `sink`: `decision`, its name, then the
    /// project or switch it names.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ decision: GateDecision, into sink: inout Sink) {
        sink.add("decision", string: Describe.decisionName(decision))
        switch decision {
        case .executed(let project), .inline(let project):
            sink.add("project", project: project)
        case .queued(let id, let position, _):
            sink.add("switch", switch: id)
            sink.add("position", integer: Int64(position))
        case .replayed(let id, let project):
            sink.add("switch", switch: id)
            sink.add("project", project: project)
        case .refused:
            break
        }
    }

    static func routing(_ routing: SwitchRouting) -> JSONValue {
        var members: [(String, JSONValue)] = [("routing", .string(Describe.routingName(routing)))]
        switch routing {
        case .absorbed(let id): members.append(("into", switchID(id)))
        case .enqueued(let id): members.append(("behind", switchID(id)))
        case .moved(let id): members.append(("entry", switchID(id)))
        case .started, .noop, .initialization: break
        }
        return .object(members)
    }

    static func stepOutcome(_ outcome: StepOutcome) -> JSONValue {
        JSONMemberTree.object { write(outcome, into: &$0) }
    }

    /// Adds the members of ``stepOutcome(_:)`` to `sink`.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ outcome: StepOutcome, into sink: inout Sink) {
        switch outcome {
        case .clean:
            sink.add("outcome", string: "clean")
        case .warning(let reason):
            sink.add("outcome", string: "noisy")
            sink.add("reason", freeText: reason)
        }
    }

    /// Adds the members of an event joining a bulk: its call, and its body unless the record
    /// carries the gate's decision (format 1.3), where the input's call makes the body.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ event: BatchedEvent, into sink: inout Sink) {
        sink.add("call", call: event.call)
        if !event.body.isEmpty { sink.add("body", body: event.body) }
    }

    /// Adds the gate's decision when it travels in an `eventBatched` (format 1.3), as a
    /// `gateDecided` writes it; nothing otherwise.
    static func write<Sink: JSONMemberSink & ~Copyable>(executedOn project: ProjectFingerprint?, _ key: JSONKey, into sink: inout Sink) {
        if let project { sink.addObject(key) { write(GateDecision.executed(project: project), into: &$0) } }
    }

    static func timer(_ timer: TimerPurpose) -> JSONValue {
        switch timer {
        case .retry(let id, let attempt):
            .object([("timer", .string("retry")), ("task", task(id)), ("attempt", .integer(Int64(attempt)))])
        case .teardownBound(let id, let step):
            .object([("timer", .string("teardown_bound")), ("switch", switchID(id)), ("step", .string(step.rawValue))])
        case .moduleHookBound(let hook):
            .object([("timer", .string("module_hook_bound")), ("hook", .unsigned(hook))])
        }
    }

    static func moduleSignal(_ signal: ModuleSignal) -> JSONValue {
        switch signal {
        case .notification(let name): .string("notification:" + name)
        case .willSwitchProject(let to): .string("willSwitchProject:" + to.hex)
        case .initialize, .start, .reset, .deinitialize, .willLogout: .string(signal.label)
        }
    }

    static func durabilityWait(_ wait: DurabilityWait) -> JSONValue {
        switch wait {
        case .flush(let call): .object([("purpose", .string("flush")), ("call", callID(call))])
        case .teardownDisable(let id): .object([("purpose", .string("teardown_disable")), ("switch", switchID(id))])
        }
    }

    /// Adds the members of what an HTTP exchange came back with to `sink`: the response's
    /// status and words, the network's error, or why nothing was sent.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ outcome: TransportOutcome, into sink: inout Sink) {
        switch outcome {
        case .response(let status, let code, let ids, let message):
            sink.add("response", integer: Int64(status))
            sink.add("code", string: code)
            sink.add("message_ids", .array(ids.map(JSONValue.string)))
            sink.add("message", freeText: message)
        case .networkError(let reason):
            sink.add("network_error", freeText: reason)
        case .notSent(let reason):
            write(reason, into: &sink)
        }
    }

    /// Adds why an attempt was never made: `not_sent` (`no_token`, `token_refused`,
    /// `no_api_key`, `no_auth_provider`, `invalid_endpoint`) and what was said.
    static func write<Sink: JSONMemberSink & ~Copyable>(_ reason: NotSentReason, into sink: inout Sink) {
        switch reason {
        case .noToken(let said):
            sink.add("not_sent", string: "no_token")
            sink.add("error", freeText: said)
        case .tokenRefused(let said):
            sink.add("not_sent", string: "token_refused")
            sink.add("error", freeText: said)
        case .noAPIKey:
            sink.add("not_sent", string: "no_api_key")
        case .noAuthProvider:
            sink.add("not_sent", string: "no_auth_provider")
        case .invalidEndpoint(let why):
            sink.add("not_sent", string: "invalid_endpoint")
            sink.add("error", freeText: why)
        }
    }
}
