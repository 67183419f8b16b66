import Journal

// Each fact kind's declaration, and the one place a fact is numbered, taken apart into its
// fields and put back together from them. A new fact adds its case to ``Fact``, its number to
// ``FactKind``, and here its declaration and a line to each of ``Fact/kindNumber``,
// ``Fact/forEachField(_:)`` and ``Fact/init(_:reading:)``; the codec, `replay`'s JSON and the
// redactor follow.

extension FactDeclaration {
    private typealias Field = FactField

    private static let call = Field("call", 1, .required, .identifier)
    private static let task = Field("task", 1, .required, .identifier)
    private static let switchID = Field("switch", 1, .required, .identifier)
    private static let projectFirst = Field("project", 1, .required, .structural)
    private static let freeReason = Field("reason", 2, .defaulted, text: .freeText)

    // MARK: Inputs

    package static let engineStarted = FactDeclaration(.engineStarted, .input, [Field("engine", 0, .required, .structural)])
    package static let callReceived = FactDeclaration(.callReceived, .input, [Field("call", 0, .required, .personal)])
    package static let transportCompleted = FactDeclaration(.transportCompleted, .input, [Field("completion", 0, .required, .freeText)])
    package static let timerFired = FactDeclaration(.timerFired, .input, [Field("timer", 0, .required, .structural)])
    package static let durabilityConfirmed = FactDeclaration(.durabilityConfirmed, .input, [Field("confirmation", 0, .required, .freeText)])
    package static let moduleHookCompleted = FactDeclaration(.moduleHookCompleted, .input, [Field("completion", 0, .required, .freeText)])
    package static let authTokenReceived = FactDeclaration(.authTokenReceived, .input, [Field("receipt", 0, .required, .freeText)])
    package static let callbacksDelivered = FactDeclaration(.callbacksDelivered, .input, [Field("switch", 0, .required, .identifier)])
    package static let notificationReceived = FactDeclaration(.notificationReceived, .input, [Field("notification", 1, .defaulted, text: .name)])
    package static let engineStopping = FactDeclaration(.engineStopping, .input)
    package static let linkResolved = FactDeclaration(.linkResolved, .input, [Field("resolution", 0, .required, .freeText)])
    package static let networkReachable = FactDeclaration(.networkReachable, .input)
    package static let localDataErased = FactDeclaration(.localDataErased, .input, [Field("erasure", 0, .required, .freeText)])
    package static let clockJumped = FactDeclaration(.clockJumped, .input, [
        Field("wall", 1, .defaulted, .structural), Field("jump_us", 2, .defaulted, .structural),
    ])
    private static let backgroundTask = Field("task", 1, .defaulted, .structural)
    package static let backgroundTaskBegan = FactDeclaration(.backgroundTaskBegan, .input, [
        backgroundTask, Field("budget_us", 2, .defaulted, .structural),
    ])
    package static let backgroundTaskExpired = FactDeclaration(.backgroundTaskExpired, .input, [backgroundTask])
    package static let backgroundFlushFinished = FactDeclaration(.backgroundFlushFinished, .input, [
        backgroundTask, Field("queued", 2, .defaulted, .structural), Field("left", 3, .defaulted, .structural),
        Field("failure", 4, .optional, text: .freeText),
    ])
    package static let backgroundTaskEnded = FactDeclaration(.backgroundTaskEnded, .input, [
        backgroundTask, Field("reason", 2, .required, .structural),
    ])
    package static let storageWasUnavailable = FactDeclaration(.storageWasUnavailable, .input, [
        Field("reason", 1, .defaulted, text: .freeText), Field("waited_us", 2, .defaulted, .structural),
        Field("attempts", 3, .defaulted, .structural), Field("held", 4, .defaulted, .structural),
        Field("refused", 5, .defaulted, .structural),
    ])
    package static let keyringWriteFailed = FactDeclaration(.keyringWriteFailed, .input, [projectFirst, freeReason])

    // MARK: Call decisions

    package static let initialized = FactDeclaration(.initialized, .call, [
        Field("project", 1, .required, .structural), Field("generation", 2, .defaulted, .structural),
    ])
    package static let callRejected = FactDeclaration(.callRejected, .call, [call, freeReason])
    package static let identityChanged = FactDeclaration(.identityChanged, .call, [
        Field("email", 1, .optional, text: .personal(token: .email)), Field("user_id", 2, .optional, text: .personal(token: .user)),
    ])
    package static let pushTokenChanged = FactDeclaration(.pushTokenChanged, .call, [Field("token", 1, .optional, text: .personal(token: .token))])
    package static let attributionChanged = FactDeclaration(.attributionChanged, .call, [
        projectFirst, Field("attribution", 2, .optional, .identifier),
    ])
    package static let attributionRefused = FactDeclaration(.attributionRefused, .call, [projectFirst, freeReason])
    package static let unknownUserEventHeld = FactDeclaration(.unknownUserEventHeld, .call, [
        projectFirst, Field("call", 2, .required, .identifier), Field("event", 3, .required, .personal),
    ])
    package static let unknownUserSessionCounted = FactDeclaration(.unknownUserSessionCounted, .call, [projectFirst])
    package static let unknownUserEventsReleased = FactDeclaration(.unknownUserEventsReleased, .call, [projectFirst])
    package static let callResolved = FactDeclaration(.callResolved, .call, [call, Field("outcome", 2, .required, .freeText)])
    package static let callsResolved = FactDeclaration(.callsResolved, .call, [
        task, Field("outcome", 2, .required, .freeText), Field("calls", 3, .repeated, .identifier),
    ], jsonOrder: [0, 2, 1])
    package static let linkResolutionStarted = FactDeclaration(.linkResolutionStarted, .call, [
        Field("job", 1, .defaulted, .structural), Field("call", 2, .required, .identifier), Field("url", 3, .defaulted, text: .url),
        Field("project", 4, .required, .structural), Field("generation", 5, .defaulted, .structural),
    ])
    package static let staleResultRefused = FactDeclaration(.staleResultRefused, .call, [
        Field("job", 1, .defaulted, .structural), Field("what", 2, .defaulted, text: .freeText),
        Field("started_in", 3, .defaulted, .structural), Field("current", 4, .defaulted, .structural),
    ])

    // MARK: Delivery decisions

    package static let taskQueued = FactDeclaration(.taskQueued, .delivery, [Field("task", 0, .required, .personal)])
    package static let eventBatched = FactDeclaration(.eventBatched, .delivery, [
        task, Field("event", 2, .required, .personal), Field("decision", 3, .optional, .structural),
    ])
    package static let taskDispatched = FactDeclaration(.taskDispatched, .delivery, [task, Field("attempt", 2, .defaulted, .structural)])
    package static let retryScheduled = FactDeclaration(.retryScheduled, .delivery, [
        task, Field("attempt", 2, .defaulted, .structural), Field("due", 3, .defaulted, .structural),
        Field("reason", 4, .required, .freeText),
    ])
    package static let taskCompleted = FactDeclaration(.taskCompleted, .delivery, [task, Field("outcome", 2, .required, .freeText)])
    package static let eventsExpired = FactDeclaration(.eventsExpired, .delivery, [task, Field("calls", 2, .repeated, .identifier)])
    package static let disableCoalesced = FactDeclaration(.disableCoalesced, .delivery, [task, Field("call", 2, .required, .identifier)])
    package static let timerSet = FactDeclaration(.timerSet, .delivery, [
        Field("timer", 1, .required, .structural), Field("due", 2, .defaulted, .structural),
    ])
    package static let authRefreshRequested = FactDeclaration(.authRefreshRequested, .delivery, [
        projectFirst, Field("request", 2, .defaulted, .structural),
    ])
    package static let authRefreshFinished = FactDeclaration(.authRefreshFinished, .delivery, [
        projectFirst, Field("request", 2, .defaulted, .structural), Field("failure", 3, .optional, text: .freeText),
    ])
    package static let durabilityRequested = FactDeclaration(.durabilityRequested, .delivery, [
        Field("request", 1, .defaulted, .structural), Field("purpose", 2, .required, .structural),
    ])
    package static let journalGap = FactDeclaration(.journalGap, .delivery, [Field("gap", 0, .required, .freeText)])

    // MARK: Module decisions

    package static let moduleEventDelivered = FactDeclaration(.moduleEventDelivered, .module, [
        Field("module", 1, .defaulted, text: .name), Field("event", 2, .required, .structural),
        Field("project", 3, .required, .structural), Field("generation", 4, .defaulted, .structural),
    ])
    package static let moduleHookStarted = FactDeclaration(.moduleHookStarted, .module, [
        Field("hook", 1, .defaulted, .structural), Field("module", 2, .defaulted, text: .name), Field("event", 3, .required, .structural),
    ])
    package static let moduleHookFinished = FactDeclaration(.moduleHookFinished, .module, [
        Field("hook", 1, .defaulted, .structural), Field("problem", 3, .optional, text: .freeText),
    ])
    package static let messagesStored = FactDeclaration(.messagesStored, .module, [
        Field("messages", 1, .required, .structural), Field("project", 2, .required, .structural),
        Field("ids", 3, .repeated, text: .identifier),
    ])
    package static let storageCleared = FactDeclaration(.storageCleared, .module, [projectFirst, Field("scope", 2, .required, .structural)])

    // MARK: Switch decisions

    package static let gateDecided = FactDeclaration(.gateDecided, .switch, [call, Field("decision", 2, .required, .personal)])
    package static let switchRouted = FactDeclaration(.switchRouted, .switch, [
        switchID, Field("call", 2, .required, .identifier), Field("project", 3, .required, .structural),
        Field("routing", 4, .required, .structural),
    ])
    package static let switchStarted = FactDeclaration(.switchStarted, .switch, [
        switchID, Field("from", 2, .optional, .structural), Field("to", 3, .required, .structural),
    ])
    package static let teardownStepBegan = FactDeclaration(.teardownStepBegan, .switch, [switchID, Field("step", 2, .required, .structural)])
    package static let teardownStepFinished = FactDeclaration(.teardownStepFinished, .switch, [
        switchID, Field("step", 2, .required, .structural), Field("outcome", 3, .required, .freeText),
        Field("elapsed_us", 4, .defaulted, .structural),
    ])
    package static let switchLanded = FactDeclaration(.switchLanded, .switch, [
        switchID, Field("project", 2, .required, .structural), Field("result", 3, .defaulted, .structural),
        Field("reasons", 4, .repeated, text: .freeText),
    ])
    package static let switchCancelled = FactDeclaration(.switchCancelled, .switch, [switchID, freeReason])

    /// Every declaration, by kind.
    package static let all: [FactDeclaration] = FactKind.allCases.map(\.declaration)
}

extension FactKind {
    /// The kind's declaration.
    package var declaration: FactDeclaration {
        switch self {
        case .engineStarted: .engineStarted
        case .callReceived: .callReceived
        case .transportCompleted: .transportCompleted
        case .timerFired: .timerFired
        case .durabilityConfirmed: .durabilityConfirmed
        case .moduleHookCompleted: .moduleHookCompleted
        case .authTokenReceived: .authTokenReceived
        case .callbacksDelivered: .callbacksDelivered
        case .notificationReceived: .notificationReceived
        case .engineStopping: .engineStopping
        case .linkResolved: .linkResolved
        case .networkReachable: .networkReachable
        case .localDataErased: .localDataErased
        case .clockJumped: .clockJumped
        case .backgroundTaskBegan: .backgroundTaskBegan
        case .backgroundTaskExpired: .backgroundTaskExpired
        case .backgroundFlushFinished: .backgroundFlushFinished
        case .backgroundTaskEnded: .backgroundTaskEnded
        case .storageWasUnavailable: .storageWasUnavailable
        case .keyringWriteFailed: .keyringWriteFailed
        case .initialized: .initialized
        case .gateDecided: .gateDecided
        case .callRejected: .callRejected
        case .identityChanged: .identityChanged
        case .pushTokenChanged: .pushTokenChanged
        case .attributionChanged: .attributionChanged
        case .attributionRefused: .attributionRefused
        case .unknownUserEventHeld: .unknownUserEventHeld
        case .unknownUserSessionCounted: .unknownUserSessionCounted
        case .taskQueued: .taskQueued
        case .taskDispatched: .taskDispatched
        case .taskCompleted: .taskCompleted
        case .timerSet: .timerSet
        case .callResolved: .callResolved
        case .authRefreshRequested: .authRefreshRequested
        case .authRefreshFinished: .authRefreshFinished
        case .moduleEventDelivered: .moduleEventDelivered
        case .moduleHookStarted: .moduleHookStarted
        case .moduleHookFinished: .moduleHookFinished
        case .messagesStored: .messagesStored
        case .storageCleared: .storageCleared
        case .durabilityRequested: .durabilityRequested
        case .unknownUserEventsReleased: .unknownUserEventsReleased
        case .journalGap: .journalGap
        case .linkResolutionStarted: .linkResolutionStarted
        case .staleResultRefused: .staleResultRefused
        case .eventBatched: .eventBatched
        case .callsResolved: .callsResolved
        case .retryScheduled: .retryScheduled
        case .eventsExpired: .eventsExpired
        case .disableCoalesced: .disableCoalesced
        case .switchRouted: .switchRouted
        case .switchStarted: .switchStarted
        case .teardownStepBegan: .teardownStepBegan
        case .teardownStepFinished: .teardownStepFinished
        case .switchLanded: .switchLanded
        case .switchCancelled: .switchCancelled
        }
    }
}

// MARK: - Fields

extension Fact {
    /// The fact's record kind (``FactKind``); an unknown fact's own.
    package var kindNumber: UInt32 {
        switch self {
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
        case .networkReachable: FactKind.networkReachable.rawValue
        case .localDataErased: FactKind.localDataErased.rawValue
        case .clockJumped: FactKind.clockJumped.rawValue
        case .backgroundTaskBegan: FactKind.backgroundTaskBegan.rawValue
        case .backgroundTaskExpired: FactKind.backgroundTaskExpired.rawValue
        case .backgroundFlushFinished: FactKind.backgroundFlushFinished.rawValue
        case .backgroundTaskEnded: FactKind.backgroundTaskEnded.rawValue
        case .storageWasUnavailable: FactKind.storageWasUnavailable.rawValue
        case .keyringWriteFailed: FactKind.keyringWriteFailed.rawValue
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
        case .eventBatched: FactKind.eventBatched.rawValue
        case .taskDispatched: FactKind.taskDispatched.rawValue
        case .retryScheduled: FactKind.retryScheduled.rawValue
        case .taskCompleted: FactKind.taskCompleted.rawValue
        case .eventsExpired: FactKind.eventsExpired.rawValue
        case .disableCoalesced: FactKind.disableCoalesced.rawValue
        case .timerSet: FactKind.timerSet.rawValue
        case .callResolved: FactKind.callResolved.rawValue
        case .callsResolved: FactKind.callsResolved.rawValue
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


    /// The fact's declaration; nil for a kind this build does not know.
    package var declaration: FactDeclaration? { FactKind(rawValue: FactCodec.kind(of: self))?.declaration }

    /// Hands each field's value to `body`, in the order of the declaration's fields (an
    /// unknown kind has none).
    @inlinable @inline(__always)
    package func forEachField(_ body: (FactField, FactFieldValue) -> Void) {
        // Fixed arities rather than a variadic list: encoding a fact must not allocate.
        func one(_ declaration: FactDeclaration, _ first: FactFieldValue) { body(declaration.fields[0], first) }
        func two(_ declaration: FactDeclaration, _ first: FactFieldValue, _ second: FactFieldValue) {
            body(declaration.fields[0], first)
            body(declaration.fields[1], second)
        }
        func three(_ declaration: FactDeclaration, _ first: FactFieldValue, _ second: FactFieldValue, _ third: FactFieldValue) {
            two(declaration, first, second)
            body(declaration.fields[2], third)
        }
        func four(_ declaration: FactDeclaration, _ first: FactFieldValue, _ second: FactFieldValue, _ third: FactFieldValue,
                  _ fourth: FactFieldValue) {
            three(declaration, first, second, third)
            body(declaration.fields[3], fourth)
        }
        func five(_ declaration: FactDeclaration, _ first: FactFieldValue, _ second: FactFieldValue, _ third: FactFieldValue,
                  _ fourth: FactFieldValue, _ fifth: FactFieldValue) {
            four(declaration, first, second, third, fourth)
            body(declaration.fields[4], fifth)
        }
        switch self {
        case .engineStarted(let start): one(.engineStarted, .engineStart(start))
        case .callReceived(let received): one(.callReceived, .receivedCall(received))
        case .transportCompleted(let completion): one(.transportCompleted, .transportCompletion(completion))
        case .timerFired(let purpose): one(.timerFired, .timer(purpose))
        case .durabilityConfirmed(let confirmation): one(.durabilityConfirmed, .durabilityConfirmation(confirmation))
        case .moduleHookCompleted(let completion): one(.moduleHookCompleted, .hookCompletion(completion))
        case .authTokenReceived(let receipt): one(.authTokenReceived, .authReceipt(receipt))
        case .callbacksDelivered(let id): one(.callbacksDelivered, .switchID(id))
        case .notificationReceived(let name): one(.notificationReceived, .text(name))
        case .engineStopping, .networkReachable, .unknown: break
        case .linkResolved(let resolution): one(.linkResolved, .linkResolution(resolution))
        case .localDataErased(let erasure): one(.localDataErased, .erasure(erasure))
        case .clockJumped(let wall, let jump): two(.clockJumped, .time(wall), .microseconds(jump))
        case .backgroundTaskBegan(let task, let budget): two(.backgroundTaskBegan, .number(task), .microseconds(budget))
        case .backgroundTaskExpired(let task): one(.backgroundTaskExpired, .number(task))
        case .backgroundFlushFinished(let task, let queued, let left, let failure):
            four(.backgroundFlushFinished, .number(task), .number(queued), .number(left), .text(failure))
        case .backgroundTaskEnded(let task, let reason): two(.backgroundTaskEnded, .number(task), .backgroundTaskEnd(reason))
        case .storageWasUnavailable(let reason, let waited, let attempts, let held, let refused):
            five(.storageWasUnavailable, .text(reason), .microseconds(waited), .number(attempts), .number(held), .number(refused))
        case .keyringWriteFailed(let project, let reason): two(.keyringWriteFailed, .fingerprint(project), .text(reason))
        case .initialized(let project, let generation): two(.initialized, .project(project), .number(generation))
        case .gateDecided(let call, let decision): two(.gateDecided, .call(call), .gateDecision(decision))
        case .callRejected(let call, let reason): two(.callRejected, .call(call), .text(reason))
        case .identityChanged(let email, let userID): two(.identityChanged, .text(email), .text(userID))
        case .pushTokenChanged(let token): one(.pushTokenChanged, .text(token))
        case .attributionChanged(let project, let info): two(.attributionChanged, .fingerprint(project), .attribution(info))
        case .attributionRefused(let project, let reason): two(.attributionRefused, .fingerprint(project), .text(reason))
        case .unknownUserEventHeld(let project, let call, let event):
            three(.unknownUserEventHeld, .fingerprint(project), .call(call), .publicCall(event))
        case .unknownUserSessionCounted(let project): one(.unknownUserSessionCounted, .fingerprint(project))
        case .unknownUserEventsReleased(let project): one(.unknownUserEventsReleased, .fingerprint(project))
        case .taskQueued(let queued): one(.taskQueued, .deliveryTask(queued))
        case .eventBatched(let task, let event, let executedOn):
            three(.eventBatched, .task(task), .batchedEvent(event), .executedOn(executedOn))
        case .taskDispatched(let task, let attempt): two(.taskDispatched, .task(task), .attempt(attempt))
        case .retryScheduled(let task, let attempt, let due, let reason):
            four(.retryScheduled, .task(task), .attempt(attempt), .time(due), .retryReason(reason))
        case .taskCompleted(let task, let outcome): two(.taskCompleted, .task(task), .taskOutcome(outcome))
        case .eventsExpired(let task, let calls): two(.eventsExpired, .task(task), .calls(calls))
        case .disableCoalesced(let task, let call): two(.disableCoalesced, .task(task), .call(call))
        case .timerSet(let purpose, let due): two(.timerSet, .timer(purpose), .time(due))
        case .callResolved(let call, let outcome): two(.callResolved, .call(call), .callOutcome(outcome))
        case .callsResolved(let task, let calls, let outcome): three(.callsResolved, .task(task), .callOutcome(outcome), .calls(calls))
        case .authRefreshRequested(let project, let request): two(.authRefreshRequested, .fingerprint(project), .number(request))
        case .authRefreshFinished(let project, let request, let failure):
            three(.authRefreshFinished, .fingerprint(project), .number(request), .text(failure))
        case .moduleEventDelivered(let module, let event, let project, let generation):
            four(.moduleEventDelivered, .text(module), .moduleSignal(event), .fingerprint(project), .number(generation))
        case .moduleHookStarted(let hook, let module, let event):
            three(.moduleHookStarted, .number(hook), .text(module), .moduleSignal(event))
        case .moduleHookFinished(let hook, let problem): two(.moduleHookFinished, .number(hook), .text(problem))
        case .messagesStored(let kind, let project, let ids): three(.messagesStored, .messageKind(kind), .fingerprint(project), .texts(ids))
        case .storageCleared(let project, let scope): two(.storageCleared, .fingerprint(project), .storageScope(scope))
        case .durabilityRequested(let request, let purpose): two(.durabilityRequested, .number(request), .durabilityWait(purpose))
        case .journalGap(let gap): one(.journalGap, .journalGap(gap))
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            five(.linkResolutionStarted, .number(job), .call(call), .text(url), .fingerprint(project), .number(generation))
        case .staleResultRefused(let job, let what, let startedIn, let current):
            four(.staleResultRefused, .number(job), .text(what), .number(startedIn), .number(current))
        case .switchRouted(let id, let call, let project, let routing):
            four(.switchRouted, .switchID(id), .call(call), .project(project), .routing(routing))
        case .switchStarted(let id, let from, let to): three(.switchStarted, .switchID(id), .fingerprint(from), .project(to))
        case .teardownStepBegan(let id, let step): two(.teardownStepBegan, .switchID(id), .teardownStep(step))
        case .teardownStepFinished(let id, let step, let outcome, let elapsed):
            four(.teardownStepFinished, .switchID(id), .teardownStep(step), .stepOutcome(outcome), .microseconds(elapsed))
        case .switchLanded(let id, let project, let result, let reasons):
            four(.switchLanded, .switchID(id), .fingerprint(project), .landing(result), .texts(reasons))
        case .switchCancelled(let id, let reason): two(.switchCancelled, .switchID(id), .text(reason))
        }
    }

    /// The fact of `kind` with the fields `source` gives for its declaration's fields.
    init(_ kind: FactKind, reading source: inout some FactFieldSource) throws(CodecError) {
        let f = kind.declaration.fields
        switch kind {
        case .engineStarted: self = .engineStarted(try source.value(f[0]))
        case .callReceived: self = .callReceived(try source.value(f[0]))
        case .transportCompleted: self = .transportCompleted(try source.value(f[0]))
        case .timerFired: self = .timerFired(try source.value(f[0]))
        case .durabilityConfirmed: self = .durabilityConfirmed(try source.value(f[0]))
        case .moduleHookCompleted: self = .moduleHookCompleted(try source.value(f[0]))
        case .authTokenReceived: self = .authTokenReceived(try source.value(f[0]))
        case .callbacksDelivered: self = .callbacksDelivered(try source.value(f[0]))
        case .notificationReceived: self = .notificationReceived(try source.text(f[0]) ?? "")
        case .engineStopping: self = .engineStopping
        case .networkReachable: self = .networkReachable
        case .linkResolved: self = .linkResolved(try source.value(f[0]))
        case .localDataErased: self = .localDataErased(try source.value(f[0]))
        case .clockJumped: self = .clockJumped(wall: try source.time(f[0]), jumpMicroseconds: try source.signed(f[1]))
        case .backgroundTaskBegan: self = .backgroundTaskBegan(task: try source.number(f[0]), budgetMicroseconds: try source.signed(f[1]))
        case .backgroundTaskExpired: self = .backgroundTaskExpired(task: try source.number(f[0]))
        case .backgroundFlushFinished:
            self = .backgroundFlushFinished(task: try source.number(f[0]), queued: try source.number(f[1]), left: try source.number(f[2]),
                                            failure: try source.text(f[3]))
        case .backgroundTaskEnded: self = .backgroundTaskEnded(task: try source.number(f[0]), reason: try source.choice(f[1]))
        case .storageWasUnavailable:
            self = .storageWasUnavailable(reason: try source.text(f[0]) ?? "", waitedMicroseconds: try source.signed(f[1]),
                                          attempts: try source.number(f[2]), held: try source.number(f[3]), refused: try source.number(f[4]))
        case .keyringWriteFailed: self = .keyringWriteFailed(project: try source.value(f[0]), reason: try source.text(f[1]) ?? "")
        case .initialized: self = .initialized(project: try source.value(f[0]), generation: try source.number(f[1]))
        case .gateDecided: self = .gateDecided(call: try source.value(f[0]), decision: try source.value(f[1]))
        case .callRejected: self = .callRejected(call: try source.value(f[0]), reason: try source.text(f[1]) ?? "")
        case .identityChanged: self = .identityChanged(email: try source.text(f[0]), userID: try source.text(f[1]))
        case .pushTokenChanged: self = .pushTokenChanged(try source.text(f[0]))
        case .attributionChanged: self = .attributionChanged(project: try source.value(f[0]), info: try source.optional(f[1]))
        case .attributionRefused: self = .attributionRefused(project: try source.value(f[0]), reason: try source.text(f[1]) ?? "")
        case .unknownUserEventHeld:
            self = .unknownUserEventHeld(project: try source.value(f[0]), call: try source.value(f[1]), event: try source.value(f[2]))
        case .unknownUserSessionCounted: self = .unknownUserSessionCounted(project: try source.value(f[0]))
        case .unknownUserEventsReleased: self = .unknownUserEventsReleased(project: try source.value(f[0]))
        case .taskQueued: self = .taskQueued(try source.value(f[0]))
        case .eventBatched:
            self = .eventBatched(task: try source.value(f[0]), event: try source.value(f[1]), executedOn: try source.optional(f[2]))
        case .taskDispatched: self = .taskDispatched(task: try source.value(f[0]), attempt: try source.attempt(f[1]))
        case .retryScheduled:
            self = .retryScheduled(task: try source.value(f[0]), attempt: try source.attempt(f[1]), due: try source.time(f[2]),
                                   reason: try source.value(f[3]))
        case .taskCompleted: self = .taskCompleted(task: try source.value(f[0]), outcome: try source.value(f[1]))
        case .eventsExpired: self = .eventsExpired(task: try source.value(f[0]), calls: try source.values(f[1]))
        case .disableCoalesced: self = .disableCoalesced(task: try source.value(f[0]), call: try source.value(f[1]))
        case .timerSet: self = .timerSet(try source.value(f[0]), due: try source.time(f[1]))
        case .callResolved: self = .callResolved(call: try source.value(f[0]), outcome: try source.value(f[1]))
        case .callsResolved:
            self = .callsResolved(task: try source.value(f[0]), calls: try source.values(f[2]), outcome: try source.value(f[1]))
        case .authRefreshRequested: self = .authRefreshRequested(project: try source.value(f[0]), request: try source.number(f[1]))
        case .authRefreshFinished:
            self = .authRefreshFinished(project: try source.value(f[0]), request: try source.number(f[1]), failure: try source.text(f[2]))
        case .moduleEventDelivered:
            self = .moduleEventDelivered(module: try source.text(f[0]) ?? "", event: try source.value(f[1]),
                                         project: try source.value(f[2]), generation: try source.number(f[3]))
        case .moduleHookStarted:
            self = .moduleHookStarted(hook: try source.number(f[0]), module: try source.text(f[1]) ?? "", event: try source.value(f[2]))
        case .moduleHookFinished: self = .moduleHookFinished(hook: try source.number(f[0]), problem: try source.text(f[1]))
        case .messagesStored:
            self = .messagesStored(kind: try source.choice(f[0]), project: try source.value(f[1]), ids: try source.texts(f[2]))
        case .storageCleared: self = .storageCleared(project: try source.value(f[0]), scope: try source.choice(f[1]))
        case .durabilityRequested: self = .durabilityRequested(request: try source.number(f[0]), purpose: try source.value(f[1]))
        case .journalGap: self = .journalGap(try source.value(f[0]))
        case .linkResolutionStarted:
            self = .linkResolutionStarted(job: try source.number(f[0]), call: try source.value(f[1]), url: try source.text(f[2]) ?? "",
                                          project: try source.value(f[3]), generation: try source.number(f[4]))
        case .staleResultRefused:
            self = .staleResultRefused(job: try source.number(f[0]), what: try source.text(f[1]) ?? "",
                                       startedIn: try source.number(f[2]), current: try source.number(f[3]))
        case .switchRouted:
            self = .switchRouted(switch: try source.value(f[0]), call: try source.value(f[1]), project: try source.value(f[2]),
                                 routing: try source.value(f[3]))
        case .switchStarted: self = .switchStarted(switch: try source.value(f[0]), from: try source.optional(f[1]), to: try source.value(f[2]))
        case .teardownStepBegan: self = .teardownStepBegan(switch: try source.value(f[0]), step: try source.value(f[1]))
        case .teardownStepFinished:
            self = .teardownStepFinished(switch: try source.value(f[0]), step: try source.value(f[1]), outcome: try source.value(f[2]),
                                         elapsedMicroseconds: try source.signed(f[3]))
        case .switchLanded:
            self = .switchLanded(switch: try source.value(f[0]), project: try source.value(f[1]),
                                 result: SwitchResult(landingCode: try source.number(f[2])),
                                 reasons: try source.texts(f[3]))
        case .switchCancelled: self = .switchCancelled(switch: try source.value(f[0]), reason: try source.text(f[1]) ?? "")
        }
    }
}
