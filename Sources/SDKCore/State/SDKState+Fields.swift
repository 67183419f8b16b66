import Journal

/// One way of going over the state's fields, each handed over with what it may reveal of a
/// person (its privacy class, ``PrivacyClass``), as the state's declaration
/// (``SDKState/mapFields(_:)``) gives it. Redaction is one (``Redactor/redact(_:)-(SDKState)``);
/// tests are others.
package protocol StateFieldMapper {
    /// Structure: counts, flags, times, sequence numbers, projects, rules, the SDK's own names.
    mutating func structural<Value>(_ value: Value) -> Value
    /// Names a thing of the project or the SDK, not a person: call, task and switch ids,
    /// message ids.
    mutating func identifier<Value>(_ value: Value) -> Value
    /// A text, of the kind the declaration says (personal, free text, a URL, …).
    mutating func text(_ value: String, _ kind: FactField.Text) -> String
    /// The SDK's values that carry personal values (a call's arguments, a request's body): what
    /// their own redaction keeps, as in facts.
    mutating func personal(_ call: PublicCall) -> PublicCall
    mutating func personal(_ call: ReceivedCall) -> ReceivedCall
    mutating func personal(_ task: DeliveryTask) -> DeliveryTask
    /// What the fold carries from one fact to the next and no snapshot holds: `empty` in a copy.
    mutating func transient<Value>(_ value: Value, empty: Value) -> Value
}

extension StateFieldMapper {
    mutating func text(_ value: String?, _ kind: FactField.Text) -> String? {
        value.map { text($0, kind) }
    }

    mutating func texts(_ values: [String], _ kind: FactField.Text) -> [String] {
        values.map { text($0, kind) }
    }
}

// The state's fields, declared once: each line says what a field may reveal. Each type is put
// back together by its memberwise initializer named in full, so a stored property added to one
// of these types changes the initializer's name and the declaration does not compile until the
// field has its line (and its privacy class) here. A value the facts carry too is classified as
// the facts' declarations classify it (a project, an attribution, a timer: kept).

extension SDKState {
    /// The state with each field given to `m` as its privacy class says: the one place the state
    /// is taken apart and put back together for redaction. Counts that follow other fields
    /// (the queue's footprint and events, the gate's bytes) are counted again from them.
    package func mapFields(_ m: inout some StateFieldMapper) -> SDKState {
        let tasks = tasks.mapValues { $0.mapFields(&m) }
        let fields = SDKState.init(live:generation:rules:sdkVersion:moduleDescriptors:projects:email:userID:pushToken:attribution:
                                   heldEvents:unknownUserSessions:inAppMessageIDs:embeddedMessageIDs:clearedProjects:
                                   instanceRunning:consentDeclined:tasks:taskOrder:queueFootprint:queuedEvents:nextTaskNumber:
                                   pendingCalls:input:timers:auth:durabilityWaits:nextRequestNumber:modules:hooks:linkJobs:
                                   switching:time:clockOffsetMicroseconds:clockAnchor:)
        return fields(
            m.structural(live),
            m.structural(generation),
            m.structural(rules),
            m.structural(sdkVersion),
            m.structural(moduleDescriptors),
            m.structural(projects),
            m.text(email, .personal(token: .email)),
            m.text(userID, .personal(token: .user)),
            m.text(pushToken, .personal(token: .token)),
            m.identifier(attribution),
            heldEvents.map { $0.mapFields(&m) },
            m.structural(unknownUserSessions),
            m.identifier(inAppMessageIDs),
            m.identifier(embeddedMessageIDs),
            m.structural(clearedProjects),
            m.structural(instanceRunning),
            m.structural(consentDeclined),
            tasks,
            m.structural(taskOrder),
            tasks.values.reduce(0) { $0 + $1.task.footprint },   // queueFootprint: follows the tasks
            tasks.values.reduce(0) { $0 + $1.task.eventCount },  // queuedEvents: follows the tasks
            m.structural(nextTaskNumber),
            pendingCalls.mapValues { $0.mapFields(&m) },
            m.transient(input, empty: InputCarryOver()),
            m.structural(timers),
            auth.mapValues { $0.mapFields(&m) },
            m.structural(durabilityWaits),
            m.structural(nextRequestNumber),
            modules.mapValues { $0.mapFields(&m) },
            hooks.mapValues { $0.mapFields(&m) },
            linkJobs.mapValues { $0.mapFields(&m) },
            switching.mapFields(&m),
            m.structural(time),
            m.structural(clockOffsetMicroseconds),
            m.structural(clockAnchor))
    }
}

extension HeldEvent {
    /// Its call's id and the event; the bytes it holds follow the event.
    func mapFields(_ m: inout some StateFieldMapper) -> HeldEvent {
        HeldEvent(call: m.identifier(call), event: m.personal(event))
    }
}

extension QueuedTask {
    func mapFields(_ m: inout some StateFieldMapper) -> QueuedTask {
        QueuedTask.init(task:status:serverFailures:waitsForNetwork:aside:tokenRefreshes:)(
            m.personal(task), m.structural(status), m.structural(serverFailures), m.structural(waitsForNetwork),
            aside?.mapFields(&m), m.structural(tokenRefreshes))
    }
}

extension AsideWait {
    /// Since when it waits aside, and why: the auth provider's and the endpoint's words are free text.
    func mapFields(_ m: inout some StateFieldMapper) -> AsideWait {
        let reason: NotSentReason = switch reason {
        case .noToken(let said): .noToken(m.text(said, .freeText))
        case .tokenRefused(let said): .tokenRefused(m.text(said, .freeText))
        case .invalidEndpoint(let why): .invalidEndpoint(m.text(why, .freeText))
        case .noAPIKey, .noAuthProvider: reason
        }
        return AsideWait.init(since:reason:)(m.structural(since), reason)
    }
}

extension PendingCall {
    func mapFields(_ m: inout some StateFieldMapper) -> PendingCall {
        PendingCall.init(name:madeAt:caller:projectAtCall:)(
            m.structural(name), m.structural(madeAt), m.structural(caller), m.structural(projectAtCall))
    }
}

extension AuthState {
    func mapFields(_ m: inout some StateFieldMapper) -> AuthState {
        AuthState.init(refreshesUsed:refreshing:)(m.structural(refreshesUsed), m.structural(refreshing))
    }
}

extension ModuleLifecycle {
    func mapFields(_ m: inout some StateFieldMapper) -> ModuleLifecycle {
        ModuleLifecycle.init(initialized:started:deinitialized:generation:)(
            m.structural(initialized), m.structural(started), m.structural(deinitialized), m.structural(generation))
    }
}

extension LinkJob {
    func mapFields(_ m: inout some StateFieldMapper) -> LinkJob {
        LinkJob.init(call:url:project:generation:)(m.identifier(call), m.text(url, .url), m.structural(project), m.structural(generation))
    }
}

extension PendingHook {
    func mapFields(_ m: inout some StateFieldMapper) -> PendingHook {
        PendingHook.init(module:signal:startedAt:)(m.structural(module), m.structural(signal), m.structural(startedAt))
    }
}

extension SwitchState {
    /// The gate's bytes follow its calls.
    func mapFields(_ m: inout some StateFieldMapper) -> SwitchState {
        var gate = FIFO<GatedCall>()
        for held in self.gate { gate.append(held.mapFields(&m)) }
        let fields = SwitchState.init(gate:gateBytes:inFlight:queue:awaitingCallbacks:nextSwitchNumber:releasingHeldCalls:)
        return fields(
            gate,
            gate.reduce(0) { $0 + $1.bytes },   // gateBytes: follows the gate
            inFlight.map { $0.mapFields(&m) },
            queue.map { $0.mapFields(&m) },
            m.identifier(awaitingCallbacks),
            m.structural(nextSwitchNumber),
            m.identifier(releasingHeldCalls))
    }
}

extension GatedCall {
    /// Its bytes follow the call.
    func mapFields(_ m: inout some StateFieldMapper) -> GatedCall {
        let call = m.personal(call)
        return GatedCall.init(call:madeAt:bytes:)(call, m.structural(madeAt), FactCodec.gateBytes(of: call))
    }
}

extension SwitchRequest {
    func mapFields(_ m: inout some StateFieldMapper) -> SwitchRequest {
        SwitchRequest.init(id:project:calls:)(m.identifier(id), m.structural(project), m.identifier(calls))
    }
}

extension SwitchRun {
    func mapFields(_ m: inout some StateFieldMapper) -> SwitchRun {
        SwitchRun.init(id:from:to:calls:startedAt:step:stepStartedAt:warnings:stepProblems:firstTaskOfWindow:)(
            m.identifier(id), m.structural(from), m.structural(to), m.identifier(calls), m.structural(startedAt), m.structural(step),
            m.structural(stepStartedAt), m.texts(warnings, .freeText), m.texts(stepProblems, .freeText), m.structural(firstTaskOfWindow))
    }
}

extension CallTable {
    /// The table with each value transformed, filed under the same calls.
    func mapValues<Mapped>(_ transform: (Value) -> Mapped) -> CallTable<Mapped> {
        var mapped = CallTable<Mapped>()
        for entry in self { mapped.insert(transform(entry.value), for: entry.key) }
        return mapped
    }
}
