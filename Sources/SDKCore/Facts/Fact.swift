import Journal

/// Everything the journal records about the SDK: inputs (what the world told it) and decisions
/// (what it concluded). The SDK's state is a fold of these with ``SDKState/evolve(_:at:)``.
package enum Fact: Sendable, Hashable {
    // MARK: Inputs

    /// The SDK object came up over the journal.
    indirect case engineStarted(EngineStart)
    /// A public call reached the mailbox. Not boxed: the busiest fact, and its call no larger
    /// than the largest unboxed fact (``PublicCall``).
    case callReceived(ReceivedCall)
    /// An HTTP exchange for a task ended.
    indirect case transportCompleted(TransportCompletion)
    /// A timer went off.
    case timerFired(TimerPurpose)
    /// A durability request was answered.
    case durabilityConfirmed(DurabilityConfirmation)
    /// An awaited module hook returned.
    case moduleHookCompleted(ModuleHookCompletion)
    /// The auth provider answered.
    case authTokenReceived(AuthTokenReceipt)
    /// The completions of a landed switch have run on the callback queue.
    case callbacksDelivered(SwitchID)
    /// A system notification (e.g. `foreground`) reached the SDK.
    case notificationReceived(String)
    /// The app shut the SDK down (`EngagementSDK.shutdown()`): the last input of the process.
    case engineStopping
    /// A tracked link's resolution (started by ``linkResolutionStarted(job:call:url:project:generation:)``) came back.
    indirect case linkResolved(LinkResolution)
    /// The app said the network is reachable again: deliveries waiting for a response go now.
    case networkReachable
    /// The journal was erased (``PublicCall/eraseLocalData``): the first fact of what goes on.
    case localDataErased(LocalDataErasure)
    /// The device's wall clock read `wall`, `jumpMicroseconds` away from what it read before
    /// plus the time that passed (the user set the date, the network corrected it). The journal's
    /// own time, the record's, runs on the monotonic clock and did not jump: nothing expires,
    /// is deleted or waits because of it. From here on the wall clock reads the record's time
    /// plus `wall`'s distance from it (``SDKState/clockOffsetMicroseconds``).
    case clockJumped(wall: JournalTime, jumpMicroseconds: Int64)
    /// The app went to the background and the system granted background task `task` (numbered
    /// from 1 in each process) for `budgetMicroseconds` (0: none granted). The journal is made
    /// durable and what waits to be sent goes now; the task ends when both are done, before its
    /// budget runs out, or when the app comes back.
    case backgroundTaskBegan(task: UInt64, budgetMicroseconds: Int64)
    /// The system took background task `task` back before the SDK ended it (its expiration
    /// handler ran): what was not sent by then waits for the next launch or foreground.
    case backgroundTaskExpired(task: UInt64)
    /// What background task `task`'s flush came to: of the `queued` requests waiting when it
    /// began, `left` were still waiting (or on the wire) at its end; `failure` says why the
    /// journal is not known to be durable (nil: everything recorded before the task began is).
    case backgroundFlushFinished(task: UInt64, queued: UInt64, left: UInt64, failure: String?)
    /// The SDK gave background task `task` back to the system, and why then.
    case backgroundTaskEnded(task: UInt64, reason: BackgroundTaskEnd)
    /// The SDK's files could not be opened when it started (a file protection class on a device
    /// not unlocked since boot): for `waitedMicroseconds` (on the monotonic clock) and
    /// `attempts` failed openings, the last for `reason`, it held `held` calls and inputs in
    /// memory, in order, and refused `refused` past the hold's bound. Recorded right after the
    /// `engineStarted` of the launch, once the files opened; the held inputs follow it.
    case storageWasUnavailable(reason: String, waitedMicroseconds: Int64, attempts: UInt64, held: UInt64, refused: UInt64)
    /// Filing `project`'s API key in the keyring failed for `reason`: the key is used in this
    /// process but a later launch may not find it (its requests then wait aside for the key).
    case keyringWriteFailed(project: ProjectFingerprint, reason: String)

    // MARK: Decisions

    /// The SDK is on `project`; `generation` counts instances (each switch starts a new one).
    indirect case initialized(project: ProjectRef, generation: UInt64)
    /// What the gate did with a call.
    case gateDecided(call: CallID, decision: GateDecision)
    /// A call's arguments were unusable.
    case callRejected(call: CallID, reason: String)
    indirect case identityChanged(email: String?, userID: String?)
    case pushTokenChanged(String?)
    indirect case attributionChanged(project: ProjectFingerprint, info: AttributionInfo?)
    /// An attribution write was refused (late work of a project whose storage was cleared).
    case attributionRefused(project: ProjectFingerprint, reason: String)
    /// An event made with no identity, held in the project's storage until the user is known.
    indirect case unknownUserEventHeld(project: ProjectFingerprint, call: CallID, event: PublicCall)
    /// The user became known: the held events were turned into requests for them.
    case unknownUserEventsReleased(project: ProjectFingerprint)
    /// An app session began with no identity.
    case unknownUserSessionCounted(project: ProjectFingerprint)
    indirect case taskQueued(DeliveryTask)
    /// A `track` call's event joined a queued `events/track` task of its project: it travels in
    /// that task's `events/trackBulk` request and is resolved with its answer. `executedOn`: the
    /// gate's decision for the call, when it travels in this record instead of a `gateDecided`
    /// of its own (format 1.3): the gate executed the call on that project, the task's. Such a
    /// record carries no body (`event.body` is empty): the event's body is the one the input's
    /// call makes (``SDKState/receivedTrackBody(of:at:)``).
    case eventBatched(task: TaskID, event: BatchedEvent, executedOn: ProjectFingerprint?)
    case taskDispatched(task: TaskID, attempt: Int)
    /// Attempt `attempt` of a task is due at `due`, after the last one failed for `reason`.
    /// Arms the timer ``TimerPurpose/retry(_:attempt:)``.
    indirect case retryScheduled(task: TaskID, attempt: Int, due: JournalTime, reason: RetryReason)
    case taskCompleted(task: TaskID, outcome: TaskOutcome)
    /// The events of these calls, carried by `task`, waited past the age limit: they leave the
    /// task (its own event first, then its batch's oldest), which goes on with its younger
    /// events under the same `Idempotency-Key`. Each call is then resolved as expired. An event's
    /// age is its own, never its task's.
    indirect case eventsExpired(task: TaskID, calls: [CallID])
    /// `call` asked for a disable of the device for the user and project `task` already
    /// disables, and `task` is not on the wire yet: the call resolves with it (one pending
    /// disable per project, user and device, however often the app asks).
    case disableCoalesced(task: TaskID, call: CallID)
    case timerSet(TimerPurpose, due: JournalTime)
    case callResolved(call: CallID, outcome: CallOutcome)
    /// Every call a delivered bulk request carried, resolved with one outcome, in call order:
    /// one record where ``callResolved(call:outcome:)`` took one per call (format 1.2). Each
    /// listed call is resolved exactly as `callResolved` resolves it.
    indirect case callsResolved(task: TaskID, calls: [CallID], outcome: CallOutcome)
    case authRefreshRequested(project: ProjectFingerprint, request: UInt64)
    /// An auth refresh ended; `failure` nil means a token arrived.
    indirect case authRefreshFinished(project: ProjectFingerprint, request: UInt64, failure: String?)
    /// A module was handed a lifecycle signal (the kind's name and its `event` member keep the
    /// journal's first spelling: see ``ModuleSignal``).
    indirect case moduleEventDelivered(module: String, event: ModuleSignal, project: ProjectFingerprint, generation: UInt64)
    indirect case moduleHookStarted(hook: UInt64, module: String, event: ModuleSignal)
    /// A hook ended: in time and handled (`problem` nil), or with the problem (an overrun of its
    /// bound, or the module's own failure).
    case moduleHookFinished(hook: UInt64, problem: String?)
    case messagesStored(kind: MessageKind, project: ProjectFingerprint, ids: [String])
    case storageCleared(project: ProjectFingerprint, scope: StorageScope)
    /// Everything journaled so far must become durable, for `purpose`; answered by
    /// ``durabilityConfirmed(_:)``.
    case durabilityRequested(request: UInt64, purpose: DurabilityWait)
    /// The journal could not record facts for a while (a full disk, an I/O error) and records
    /// again: this many facts are missing between the two times. Rules that need every fact
    /// cannot be judged across it.
    case journalGap(JournalGap)
    /// `handleUniversalLink` asked for a tracked link's redirect: an asynchronous job of the
    /// instance `generation` of `project`.
    indirect case linkResolutionStarted(job: UInt64, call: CallID, url: String, project: ProjectFingerprint, generation: UInt64)
    /// The result of asynchronous work came back after the instance that started it was
    /// replaced (its generation changed): it is not applied.
    indirect case staleResultRefused(job: UInt64, what: String, startedIn: UInt64, current: UInt64)

    // MARK: Switch decisions

    indirect case switchRouted(switch: SwitchID, call: CallID, project: ProjectRef, routing: SwitchRouting)
    indirect case switchStarted(switch: SwitchID, from: ProjectFingerprint?, to: ProjectRef)
    case teardownStepBegan(switch: SwitchID, step: TeardownStepKind)
    indirect case teardownStepFinished(switch: SwitchID, step: TeardownStepKind, outcome: StepOutcome, elapsedMicroseconds: Int64)
    indirect case switchLanded(switch: SwitchID, project: ProjectFingerprint, result: SwitchResult, reasons: [String])
    /// A queued switch was dropped before it began (the SDK shut down).
    case switchCancelled(switch: SwitchID, reason: String)

    /// A fact of a kind this build does not know (written by a newer SDK): kept, never applied.
    case unknown(kind: UInt32, payload: [UInt8])
}

/// What the gate did with a call.
package enum GateDecision: Sendable, Hashable {
    /// Run now against the live project.
    case executed(project: ProjectFingerprint)
    /// Held behind the gate of switch `switch`, at this position in its queue (the call is
    /// kept whole: it is replayed from here, even after a restart).
    indirect case queued(switch: SwitchID, position: Int, call: ReceivedCall)
    /// Run when `switch` landed, against the project it landed on.
    case replayed(switch: SwitchID, project: ProjectFingerprint)
    /// Run at once against the project the SDK was on, although a switch was running.
    case inline(project: ProjectFingerprint)
    /// Not run: the reason is in the call's resolution. A call the gate held is let go.
    case refused
}

/// Which kind of messages.
package enum MessageKind: String, Sendable, Hashable, CaseIterable {
    case inApp = "in-app"
    case embedded
}

/// What a clear wiped.
package enum StorageScope: String, Sendable, Hashable, CaseIterable {
    /// Email, user id, push token, in memory and in storage.
    case identity
    /// Unknown-user events and sessions, attribution.
    case projectScoped = "project-scoped"
    case inAppMessages = "in-app messages"
    case embeddedMessages = "embedded messages"
    /// Everything personal the device holds for the live project: identity, push token,
    /// attribution, unknown-user events and sessions, stored message ids
    /// (``PublicCall/eraseLocalData``). Unlike a switch's clearing, later writes still land.
    case personalData = "personal data"
}
