import Journal
import SDK

/// Facts and the values they carry as JSON, for `--json` output and NDJSON exports.
///
/// Keys are snake_case and appear in a fixed order; projects are fingerprints in hex, calls
/// their full UUID, tasks and switches their numbers.
package enum FactJSON {
    /// The members describing `fact` (without `seq`, `time` and `kind`, which callers add).
    static func members(_ fact: Fact) -> [(String, JSONValue)] {
        switch fact {
        case .engineStarted(let start):
            return [("sdk_version", .string(start.sdkVersion)), ("restored", .bool(start.restored)),
                    ("rules", rules(start.options)),
                    ("modules", .array(start.modules.map { .object([("name", .string($0.name)),
                                                                    ("notifications", .array($0.notifications.map(JSONValue.string)))]) }))]
        case .callReceived(let received):
            return [("call", callID(received.id)), ("caller", .unsigned(received.caller)), ("request", call(received.call))]
        case .transportCompleted(let completion):
            var members: [(String, JSONValue)] = [("task", task(completion.task)), ("attempt", .integer(Int64(completion.attempt))),
                                                  ("outcome", transport(completion.outcome))]
            if !completion.refusedEvents.isEmpty {
                members.append(("refused_events", .array(completion.refusedEvents.map {
                    .object([("index", .integer(Int64($0.index))), ("reason", .string($0.reason))])
                })))
            }
            return members
        case .timerFired(let purpose):
            return [("timer", timer(purpose))]
        case .durabilityConfirmed(let confirmation):
            return [("request", .unsigned(confirmation.request)), ("failure", .optional(confirmation.failure, JSONValue.string))]
        case .moduleHookCompleted(let completion):
            return [("hook", .unsigned(completion.hook)), ("failure", .optional(completion.failure, JSONValue.string))]
        case .authTokenReceived(let receipt):
            return [("request", .unsigned(receipt.request)), ("project", project(receipt.project)),
                    ("failure", .optional(receipt.failure, JSONValue.string))]
        case .callbacksDelivered(let id):
            return [("switch", switchID(id))]
        case .notificationReceived(let name):
            return [("notification", .string(name))]
        case .engineStopping:
            return []
        case .linkResolved(let resolution):
            return [("job", .unsigned(resolution.job)), ("destination", .optional(resolution.destination, JSONValue.string)),
                    ("attribution", .optional(resolution.attribution, attribution)),
                    ("failure", .optional(resolution.failure, JSONValue.string))]
        case .journalGap(let gap):
            return [("lost_facts", .unsigned(gap.lostFacts)), ("from", .string(gap.from.description)),
                    ("to", .string(gap.to.description)), ("reason", .string(gap.reason))]
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            return [("job", .unsigned(job)), ("call", callID(call)), ("url", .string(url)), ("project", self.project(project)),
                    ("generation", .unsigned(generation))]
        case .staleResultRefused(let job, let what, let startedIn, let current):
            return [("job", .unsigned(job)), ("what", .string(what)), ("started_in", .unsigned(startedIn)),
                    ("current", .unsigned(current))]
        case .switchCancelled(let id, let reason):
            return [("switch", switchID(id)), ("reason", .string(reason))]
        case .initialized(let project, let generation):
            return [("project", projectRef(project)), ("generation", .unsigned(generation))]
        case .gateDecided(let call, let decision):
            return [("call", callID(call)), ("decision", self.decision(decision))]
        case .callRejected(let call, let reason):
            return [("call", callID(call)), ("reason", .string(reason))]
        case .identityChanged(let email, let userID):
            return [("email", .optional(email, JSONValue.string)), ("user_id", .optional(userID, JSONValue.string))]
        case .pushTokenChanged(let token):
            return [("token", .optional(token, JSONValue.string))]
        case .attributionChanged(let project, let info):
            return [("project", self.project(project)), ("attribution", .optional(info, attribution))]
        case .attributionRefused(let project, let reason):
            return [("project", self.project(project)), ("reason", .string(reason))]
        case .unknownUserEventHeld(let project, let call, let event):
            return [("project", self.project(project)), ("call", callID(call)), ("event", self.call(event))]
        case .unknownUserEventsReleased(let project), .unknownUserSessionCounted(let project):
            return [("project", self.project(project))]
        case .taskQueued(let queued):
            return [("task", deliveryTask(queued))]
        case .eventBatched(let id, let event):
            return [("task", task(id)), ("call", callID(event.call)), ("body", .string(String(decoding: event.body, as: UTF8.self)))]
        case .taskDispatched(let id, let attempt):
            return [("task", task(id)), ("attempt", .integer(Int64(attempt)))]
        case .taskCompleted(let id, let outcome):
            return [("task", task(id)), ("outcome", taskOutcome(outcome))]
        case .timerSet(let purpose, let due):
            return [("timer", timer(purpose)), ("due", .string(due.description))]
        case .callResolved(let call, let outcome):
            return [("call", callID(call)), ("outcome", self.outcome(outcome))]
        case .authRefreshRequested(let project, let request):
            return [("project", self.project(project)), ("request", .unsigned(request))]
        case .authRefreshFinished(let project, let request, let failure):
            return [("project", self.project(project)), ("request", .unsigned(request)),
                    ("failure", .optional(failure, JSONValue.string))]
        case .moduleEventDelivered(let module, let event, let project, let generation):
            return [("module", .string(module)), ("event", moduleEvent(event)), ("project", self.project(project)),
                    ("generation", .unsigned(generation))]
        case .moduleHookStarted(let hook, let module, let event):
            return [("hook", .unsigned(hook)), ("module", .string(module)), ("event", moduleEvent(event))]
        case .moduleHookFinished(let hook, let problem):
            return [("hook", .unsigned(hook)), ("problem", .optional(problem, JSONValue.string))]
        case .messagesStored(let kind, let project, let ids):
            return [("messages", .string(kind.rawValue)), ("project", self.project(project)),
                    ("ids", .array(ids.map(JSONValue.string)))]
        case .storageCleared(let project, let scope):
            return [("project", self.project(project)), ("scope", .string(scope.rawValue))]
        case .durabilityRequested(let request, let purpose):
            return [("request", .unsigned(request)), ("purpose", durabilityWait(purpose))]
        case .switchRouted(let id, let call, let project, let routing):
            return [("switch", switchID(id)), ("call", callID(call)), ("project", projectRef(project)),
                    ("routing", self.routing(routing))]
        case .switchStarted(let id, let from, let to):
            return [("switch", switchID(id)), ("from", .optional(from, project)), ("to", projectRef(to))]
        case .teardownStepBegan(let id, let step):
            return [("switch", switchID(id)), ("step", .string(step.rawValue))]
        case .teardownStepFinished(let id, let step, let outcome, let elapsed):
            return [("switch", switchID(id)), ("step", .string(step.rawValue)), ("outcome", stepOutcome(outcome)),
                    ("elapsed_us", .integer(elapsed))]
        case .switchLanded(let id, let project, let result, let reasons):
            return [("switch", switchID(id)), ("project", self.project(project)), ("result", .string(Describe.result(result))),
                    ("reasons", .array(reasons.map(JSONValue.string)))]
        case .unknown(let kind, let payload):
            return [("unknown_kind", .unsigned(UInt64(kind))), ("bytes", .integer(Int64(payload.count)))]
        }
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
        switch content {
        case .fact(let fact): members(fact)
        case .snapshot(let state): [("state", StateDocument.make(state))]
        case .unreadable(let reason): [("unreadable", .string(reason))]
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
        .object(members.keys.sorted().map { ($0, data(members[$0] ?? .null)) })
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
        var members: [(String, JSONValue)] = [("name", .string(call.name.rawValue))]
        switch call {
        case .initialize(let project), .switchProject(let project): members.append(("project", projectRef(project)))
        case .setEmail(let email): members.append(("email", .optional(email, JSONValue.string)))
        case .setUserId(let userID): members.append(("user_id", .optional(userID, JSONValue.string)))
        case .updateEmail(let email): members.append(("new_email", .string(email)))
        case .updateUser(let dataFields, let merge):
            members += [("data_fields", data(dataFields)), ("merge_nested_objects", .bool(merge))]
        case .updateCart(let items): members.append(("items", self.items(items)))
        case .trackPurchase(let total, let items, let dataFields):
            members += [("total", .number(total)), ("items", self.items(items)), ("data_fields", .optional(dataFields, data))]
        case .track(let event, let dataFields):
            members += [("event", .string(event)), ("data_fields", .optional(dataFields, data))]
        case .registerToken(let token): members.append(("token", .string(token)))
        case .trackPushOpen(let open):
            members += [("campaign_id", .optional(open.campaignID) { .integer($0) }),
                        ("template_id", .optional(open.templateID) { .integer($0) }),
                        ("message_id", .string(open.messageID)), ("app_already_running", .bool(open.appAlreadyRunning)),
                        ("data_fields", .optional(open.dataFields, data))]
        case .handlePush(let payload): members.append(("payload", data(payload)))
        case .inAppFetch(let count): members.append(("count", .integer(Int64(count))))
        case .inAppOpen(let id), .inAppDelivery(let id), .inAppConsume(let id), .embeddedReceived(let id):
            members.append(("message_id", .string(id)))
        case .inAppClick(let id, let url): members += [("message_id", .string(id)), ("url", .string(url))]
        case .inAppClose(let id, let url): members += [("message_id", .string(id)), ("url", .optional(url, JSONValue.string))]
        case .embeddedClick(let id, let button, let url):
            members += [("message_id", .string(id)), ("button_id", .optional(button, JSONValue.string)),
                        ("url", .optional(url, JSONValue.string))]
        case .setAttribution(let info): members.append(("attribution", .optional(info, attribution)))
        case .handleUniversalLink(let url): members.append(("url", .string(url)))
        case .disableDevice, .logoutUser, .embeddedFetch, .flush: break
        }
        return .object(members)
    }

    static func deliveryTask(_ task: DeliveryTask) -> JSONValue {
        .object([("id", .unsigned(task.id.number)), ("call", .optional(task.call, callID)), ("project", project(task.project)),
                 ("region", .string(task.region)), ("endpoint", .string(task.endpoint)), ("path", .string(task.path)),
                 ("method", .string(task.method.rawValue)), ("query", .optional(task.query, JSONValue.string)),
                 ("body", .string(String(decoding: task.body, as: UTF8.self))), ("created_at", .string(task.createdAt.description))])
    }

    static func failure(_ failure: CallFailure) -> JSONValue {
        switch failure {
        case .rejected(let reason): .object([("failure", .string("rejected")), ("reason", .string(reason))])
        case .notInitialized: .object([("failure", .string("not_initialized"))])
        case .httpStatus(let status, let code, let message):
            .object([("failure", .string("http_status")), ("status", .integer(Int64(status))), ("code", .optional(code, JSONValue.string)),
                     ("message", .optional(message, JSONValue.string))])
        case .retriesExhausted(let reason): .object([("failure", .string("retries_exhausted")), ("reason", .string(reason))])
        case .authentication(let reason): .object([("failure", .string("authentication")), ("reason", .string(reason))])
        }
    }

    static func discard(_ reason: DiscardReason) -> JSONValue {
        switch reason {
        case .purgedByLogout: .object([("discard", .string("purged_by_logout"))])
        case .purgedBySwitch(let id): .object([("discard", .string("purged_by_switch")), ("switch", switchID(id))])
        case .undeliveredAtSwitch(let id): .object([("discard", .string("undelivered_at_switch")), ("switch", switchID(id))])
        case .gateFull(let capacity): .object([("discard", .string("gate_full")), ("capacity", .integer(Int64(capacity)))])
        case .queueFull(let capacity): .object([("discard", .string("queue_full")), ("capacity", .integer(Int64(capacity)))])
        case .shutdown: .object([("discard", .string("shutdown"))])
        }
    }

    static func outcome(_ outcome: CallOutcome) -> JSONValue {
        switch outcome {
        case .delivered(let project, let status):
            .object([("status", .string("delivered")), ("project", self.project(project)), ("http_status", .integer(Int64(status)))])
        case .applied(let project):
            .object([("status", .string("applied")), ("project", .optional(project, self.project))])
        case .failed(let failure):
            .object([("status", .string("failed")), ("failure", self.failure(failure))])
        case .discarded(let reason):
            .object([("status", .string("discarded")), ("reason", discard(reason))])
        }
    }

    static func taskOutcome(_ outcome: TaskOutcome) -> JSONValue {
        switch outcome {
        case .delivered(let status): .object([("status", .string("delivered")), ("http_status", .integer(Int64(status)))])
        case .failed(let failure): .object([("status", .string("failed")), ("failure", self.failure(failure))])
        case .discarded(let reason): .object([("status", .string("discarded")), ("reason", discard(reason))])
        }
    }

    static func decision(_ decision: GateDecision) -> JSONValue {
        var members: [(String, JSONValue)] = [("decision", .string(Describe.decisionName(decision)))]
        switch decision {
        case .executed(let project), .inline(let project): members.append(("project", self.project(project)))
        case .queued(let id, let position, _): members += [("switch", switchID(id)), ("position", .integer(Int64(position)))]
        case .replayed(let id, let project): members += [("switch", switchID(id)), ("project", self.project(project))]
        case .refused: break
        }
        return .object(members)
    }

    static func routing(_ routing: SwitchRouting) -> JSONValue {
        var members: [(String, JSONValue)] = [("routing", .string(Describe.routingName(routing)))]
        switch routing {
        case .absorbed(let id): members.append(("into", switchID(id)))
        case .enqueued(let id): members.append(("behind", switchID(id)))
        case .moved(let id): members.append(("entry", switchID(id)))
        default: break
        }
        return .object(members)
    }

    static func stepOutcome(_ outcome: StepOutcome) -> JSONValue {
        switch outcome {
        case .clean: .object([("outcome", .string("clean"))])
        case .warning(let reason): .object([("outcome", .string("noisy")), ("reason", .string(reason))])
        }
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

    static func moduleEvent(_ event: ModuleEvent) -> JSONValue {
        switch event {
        case .notification(let name): .string("notification:" + name)
        case .willSwitchProject(let to): .string("willSwitchProject:" + to.hex)
        default: .string(event.label)
        }
    }

    static func durabilityWait(_ wait: DurabilityWait) -> JSONValue {
        switch wait {
        case .flush(let call): .object([("purpose", .string("flush")), ("call", callID(call))])
        case .teardownDisable(let id): .object([("purpose", .string("teardown_disable")), ("switch", switchID(id))])
        }
    }

    static func transport(_ outcome: TransportOutcome) -> JSONValue {
        switch outcome {
        case .response(let status, let code, let ids, let message):
            .object([("response", .integer(Int64(status))), ("code", .optional(code, JSONValue.string)),
                     ("message_ids", .array(ids.map(JSONValue.string))), ("message", .optional(message, JSONValue.string))])
        case .networkError(let reason): .object([("network_error", .string(reason))])
        }
    }
}
