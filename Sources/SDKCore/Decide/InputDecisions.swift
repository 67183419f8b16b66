import Journal

/// The decisions made for one input, in order, each already applied to the state.
struct InputDecisions {
    /// The input's time: every decision made for it carries it.
    let time: JournalTime
    private(set) var facts: [Fact]
    /// The facts as journal records (``FactCodec/append(_:to:)``), each encoded as it is
    /// recorded, when the caller journals them (``encodes``); else left empty.
    private(set) var records: RecordBundle
    /// Whether ``records`` are made.
    private let encodes: Bool
    /// The received `track` call whose body was built before the call is recorded, because it
    /// will run at once (``SDKState/prepareTrackBody(for:at:)``, into the state's
    /// ``InputCarryOver/preparedBody``): its data fields' JSON, written once, serves the call's
    /// record, its validation and its request. Where that JSON lies in the body, and how it
    /// stands for the data fields.
    private var preparedCall: CallID?
    private var preparedDataFields: Range<Int>?
    private var preparedFidelity: JSONFidelity

    /// The gate's `executed` decision for the `track` call being decided, deferred to travel in
    /// the call's `eventBatched` (``recordBatched(task:call:body:)``) when its event joins a bulk;
    /// recorded on its own just before the call's first other decision otherwise (or at the
    /// end, ``recordDeferredGateDecision()``). Already applied to the state when deferred.
    private var deferredGateDecision: (call: CallID, project: ProjectFingerprint)?
    /// Where the input's received call goes in ``facts`` once it is decided
    /// (``list(received:)``); nil when no call is being decided.
    private var receivedPlace: Int?

    /// Decisions made into `storage`, emptied first (its buffer is kept); with `records`
    /// (emptied first too, its storage kept) when `encodes`.
    init(time: JournalTime, storage: consuming [Fact] = [], records: consuming RecordBundle = RecordBundle(), encodes: Bool = false) {
        // Emptied as locals, then stored: emptied in place, the new value would be copied whole
        // (and the copy destroyed) once initialized.
        var facts = consume storage
        facts.removeAll(keepingCapacity: true)
        if facts.capacity < 8 { facts.reserveCapacity(8) }
        var records = consume records
        records.removeAll()
        self.time = time
        self.encodes = encodes
        self.facts = facts
        self.records = records
        preparedCall = nil
        preparedDataFields = nil
        preparedFidelity = .exact
        deferredGateDecision = nil
        receivedPlace = nil
    }

    /// Hands the facts decided, and their records, over to `facts` and `records` (swapped:
    /// what those held stays behind, to be dropped with the decisions). Returned from a
    /// consuming method, the four arrays would be copied out and the originals released.
    mutating func finish(into facts: inout [Fact], records: inout RecordBundle) {
        precondition(receivedPlace == nil, "a received call recorded and never listed")
        swap(&facts, &self.facts)
        swap(&records, &self.records)
    }

    /// Records a decision. Its record is encoded here, while the fact is this function's own:
    /// encoded later, out of the list, each fact would first be copied (retaining what it holds).
    mutating func record(_ fact: consuming Fact) {
        if deferredGateDecision != nil { recordDeferredGateDecision() }
        if encodes { FactCodec.append(fact, to: &records) }
        facts.append(fact)
    }

    /// Defers the gate's `executed` decision for `call` on `project` (already applied):
    /// see ``deferredGateDecision``.
    mutating func deferGateDecision(executing call: CallID, on project: ProjectFingerprint) {
        deferredGateDecision = (call, project)
    }

    /// Records the deferred gate decision on its own, if one is still deferred.
    mutating func recordDeferredGateDecision() {
        guard let (call, project) = deferredGateDecision else { return }
        deferredGateDecision = nil
        record(.gateDecided(call: call, decision: .executed(project: project)))
    }

    /// Records that the event of `call`, whose body is `body`, joined task `task` (already
    /// applied): with the deferred gate decision of the call in the same record when there is
    /// one (format 1.3), and then without its body, which the input's call makes
    /// (``SDKState/receivedTrackBody(of:at:)``); else as ``record(_:)`` does.
    mutating func recordBatched(task: TaskID, call: CallID, body: borrowing [UInt8]) {
        guard let deferred = deferredGateDecision, deferred.call == call else {
            record(.eventBatched(task: task, event: BatchedEvent(call: call, body: copy body), executedOn: nil))
            return
        }
        deferredGateDecision = nil
        let bodiless = BatchedEvent(call: call, body: [])
        if encodes { FactCodec.append(eventBatched: task, event: bodiless, executedOn: deferred.project, to: &records) }
        facts.append(.eventBatched(task: task, event: bodiless, executedOn: deferred.project))
    }

    /// ``record(_:)`` of `.callReceived(received)`, the input's own fact, first in the list: its
    /// record encoded now from `received`, with the data fields' JSON from `preparedBody` (the
    /// body prepared for it) when they read back exactly from it; its place in the list kept
    /// for it. The call goes on to be decided from `received`, then is moved into that place
    /// (``list(received:)``): the list never holds a copy of the call beside it.
    mutating func record(received: borrowing ReceivedCall, preparedBody: borrowing [UInt8]) {
        if encodes {
            if preparedCall == received.id, let range = preparedDataFields, preparedFidelity == .exact {
                preparedBody.withUnsafeBufferPointer { body in
                    FactCodec.append(callReceived: received, dataFieldsJSON: UnsafeBufferPointer(rebasing: body[range]), to: &records)
                }
            } else {
                FactCodec.append(callReceived: received, dataFieldsJSON: nil, to: &records)
            }
        }
        precondition(receivedPlace == nil, "one received call per input")
        receivedPlace = facts.count
        facts.append(.unknown(kind: 0, payload: []))
    }

    /// Lists `.callReceived(received)` in the place ``record(received:preparedBody:)`` kept,
    /// once the call is decided.
    mutating func list(received: consuming ReceivedCall) {
        guard let place = receivedPlace else { preconditionFailure("a received call listed before it was recorded") }
        facts[place] = .callReceived(received)
        receivedPlace = nil
    }

    /// Notes what writing the body prepared for `call` found (nil: none was prepared).
    mutating func prepare(_ body: TrackBody?, for call: CallID) {
        guard let body else { return }
        preparedCall = call
        preparedDataFields = body.dataFields
        preparedFidelity = body.fidelity
    }

    /// What writing the prepared body of `call` found of its data fields: their JSON's length
    /// and fidelity. Nil when none was prepared for `call`, or it has no data fields.
    func preparedDataFields(of call: CallID) -> (bytes: Int, fidelity: JSONFidelity)? {
        guard preparedCall == call, let range = preparedDataFields else { return nil }
        return (range.count, preparedFidelity)
    }

    /// Whether a body was prepared for `call` (in the state's ``InputCarryOver/preparedBody``),
    /// answered once: later it is taken as used.
    mutating func takePrepared(for call: CallID) -> Bool {
        guard preparedCall == call else { return false }
        preparedCall = nil
        return true
    }
}

extension SDKState {
    /// Decides what `input` means: returns the input followed by the decisions it leads to, and
    /// leaves `self` in the state those facts produce (the same as folding them with ``evolve(_:at:)``).
    ///
    /// Pure: it depends only on the state and the input (whose `time` is the only clock it
    /// reads), does no I/O, and is deterministic, so `replay recheck` can run today's rules over
    /// a field journal's inputs and compare.
    public mutating func decide(_ input: Fact, at time: JournalTime) -> [Fact] {
        var facts: [Fact] = []
        decide(input, at: time, into: &facts)
        return facts
    }

    /// ``decide(_:at:)``, with the facts written into `facts` (emptied first, its buffer kept):
    /// the engine decides into one array from input to input instead of allocating one each time.
    package mutating func decide(_ input: Fact, at time: JournalTime, into facts: inout [Fact]) {
        var records = RecordBundle()
        decide(input, at: time, into: &facts, records: &records, encodes: false)
    }

    /// ``decide(_:at:into:)``, with the facts also encoded as journal records into `records`
    /// (emptied first, its storage kept), in order, each as it is decided: the same records
    /// as ``FactCodec/append(_:to:)`` of each fact makes afterwards, without copying the facts
    /// out of the list to encode them. The engine journals them as one bundle. The input is
    /// consumed: a received call, the busiest input, is moved out of it, not copied with it.
    package mutating func decide(_ input: consuming Fact, at time: JournalTime, into facts: inout [Fact], records: inout RecordBundle) {
        decide(input, at: time, into: &facts, records: &records, encodes: true)
    }

    private mutating func decide(_ input: consuming Fact, at time: JournalTime, into facts: inout [Fact], records: inout RecordBundle,
                                 encodes: Bool) {
        var storage: [Fact] = []
        swap(&storage, &facts)
        var bundle = RecordBundle()
        swap(&bundle, &records)
        var decisions = InputDecisions(time: time, storage: consume storage, records: consume bundle, encodes: encodes)
        // What the input answers, looked up before the input itself is applied.
        let timerWasSet = if case .timerFired(let purpose) = input { timers[purpose] != nil } else { false }
        let durabilityPurpose = if case .durabilityConfirmed(let confirmation) = input {
            durabilityWaits[confirmation.request]
        } else {
            DurabilityWait?.none
        }
        let linkJob = if case .linkResolved(let resolution) = input { linkJobs[resolution.job] } else { LinkJob?.none }
        let stops = if case .engineStopping = input { true } else { false }
        // The busiest input: its call is moved out of the input, then applied and recorded from
        // it (bound from the input, the call would be copied, and the input too).
        if case .callReceived = input {
            guard case .callReceived(let received) = consume input else { preconditionFailure() }
            decideCall(received, &decisions)
        } else {
            emit(copy input, &decisions)
            switch input {
            case .engineStarted(let start): handleEngineStart(start, &decisions)
            case .transportCompleted(let completion): handleTransport(completion, &decisions)
            case .timerFired(let purpose): if timerWasSet { handleTimer(purpose, &decisions) }
            case .durabilityConfirmed(let confirmation):
                if let durabilityPurpose { handleDurability(confirmation, purpose: durabilityPurpose, &decisions) }
            case .moduleHookCompleted(let completion): handleHookCompletion(completion, &decisions)
            case .authTokenReceived(let receipt): handleAuthToken(receipt, &decisions)
            case .callbacksDelivered: startNextSwitchIfReady(&decisions)
            case .notificationReceived(let name): handleNotification(name, &decisions)
            case .engineStopping: handleStop(&decisions)
            case .linkResolved(let resolution): handleLinkResolution(resolution, job: linkJob, &decisions)
            case .networkReachable: handleNetworkReachable(&decisions)
            case .localDataErased(let erasure): handleLocalDataErased(erasure, &decisions)
            // The wall clock is for people: its jump changes no decision (the journal's time,
            // which every age and timer reads, did not jump).
            case .clockJumped: break
            // Entering the background: what waits for the network goes now, within the task's
            // budget. The task's other facts report what the shell did and decide nothing.
            case .backgroundTaskBegan: handleNetworkReachable(&decisions)
            case .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded: break
            // Storage that opened late, a key that could not be filed: the held inputs that
            // follow are decided one by one as they come; the key is used in this process all
            // the same. Both are reported, and decide nothing.
            case .storageWasUnavailable, .keyringWriteFailed: break
            // A call is decided above; the rest are not inputs (only what the world tells the SDK is one).
            case .callReceived,
                 .initialized, .callRejected, .callResolved, .callsResolved, .identityChanged, .pushTokenChanged,
                 .attributionChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted,
                 .unknownUserEventsReleased, .linkResolutionStarted, .staleResultRefused,
                 .taskQueued, .eventBatched, .taskDispatched, .retryScheduled, .taskCompleted, .eventsExpired, .disableCoalesced, .timerSet,
                 .authRefreshRequested, .authRefreshFinished, .durabilityRequested, .journalGap,
                 .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared,
                 .gateDecided, .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded,
                 .switchCancelled,
                 .unknown: break
            }
        }
        // A landed switch's held calls go on as the delivery queue makes room.
        if switching.releasingHeldCalls != nil && !stops { releaseHeldCalls(&decisions) }
        decisions.finish(into: &facts, records: &records)
    }

    /// Applies a decision and records it. Consumed: a decision made for the call is moved into
    /// the list, not copied.
    mutating func emit(_ fact: consuming Fact, _ decisions: inout InputDecisions) {
        evolve(fact, at: decisions.time)
        decisions.record(fact)
    }

    /// Decides the input `.callReceived(received)`: applies and records it as ``emit(_:_:)``
    /// does, from the call itself (folding the fact and encoding it would each bind the call
    /// again, copying it out of the fact), then handles the call.
    ///
    /// The call is recorded and decided in its journaled form (``journaledForm(of:)``): a call
    /// over its limits as ``PublicCall/oversized(_:reason:)``, its name and why, never arguments
    /// too large for the journal; a call made while the user declined without its personal
    /// values, refused by the gate and resolved as declined.
    private mutating func decideCall(_ received: consuming ReceivedCall, _ decisions: inout InputDecisions) {
        if declines(received.call) { return decideDeclinedCall(received, &decisions) }
        decisions.prepare(prepareTrackBody(for: received, at: decisions.time), for: received.id)
        let problem = CallValidation.problem(in: received.call, measuredDataFields: decisions.preparedDataFields(of: received.id))
        Self.replaceIfOverLimit(&received.call, problem)
        time = decisions.time
        receiveCall(received, at: decisions.time)
        decisions.record(received: received, preparedBody: input.preparedBody)
        handleCall(received, problem: problem, &decisions)
        decisions.list(received: received)
    }

    /// Decides a call made while the user declined: recorded in its declined form
    /// (``declinedForm(of:)``), refused by the gate, resolved as declined.
    private mutating func decideDeclinedCall(_ received: consuming ReceivedCall, _ decisions: inout InputDecisions) {
        received.call = Self.declinedForm(of: received.call)
        time = decisions.time
        receiveCall(received, at: decisions.time)
        decisions.record(received: received, preparedBody: input.preparedBody)
        emit(.gateDecided(call: received.id, decision: .refused), &decisions)
        resolve(received.id, .discarded(.consentDeclined), &decisions)
        decisions.list(received: received)
    }

    /// Resolves a pending call, once: a call already resolved is left alone.
    ///
    /// The fact is applied as ``emit(_:_:)`` applies it (``evolve(_:at:)``), through the index
    /// of the pending call found here: the call's id is hashed once, not once to look and once
    /// more to remove.
    mutating func resolve(_ call: CallID?, _ outcome: CallOutcome, _ decisions: inout InputDecisions) {
        guard let call, let index = pendingCalls.index(forKey: call) else { return }
        time = decisions.time
        removePendingCall(at: index)
        decisions.record(.callResolved(call: call, outcome: outcome))
    }

    /// A fresh request number (auth refreshes, durability requests, module hooks).
    mutating func takeRequestNumber() -> UInt64 {
        let number = nextRequestNumber
        nextRequestNumber &+= 1
        return number
    }

    private mutating func handleEngineStart(_ start: EngineStart, _ decisions: inout InputDecisions) {
        // Resume delivery: requests that were on the wire go again, in order; those waiting
        // aside are tried again (the app may give their key or provider in this process).
        retryTasksAside(&decisions)
        // A switch cut short while it started its instance: the instance it had begun died with
        // the previous process, so it starts again here (the old start hooks are answered as
        // interrupted, which gives the step a warning).
        if let run = switching.inFlight, run.step == .startInstance, !instanceRunning {
            startInstance(on: run.to, &decisions)
            startModules(&decisions)
        }
        // A switch queued behind one whose callbacks the previous process never ran starts now.
        startNextSwitchIfReady(&decisions)
    }

    private mutating func handleDurability(_ confirmation: DurabilityConfirmation, purpose: DurabilityWait, _ decisions: inout InputDecisions) {
        switch purpose {
        case .flush(let call):
            resolve(call, confirmation.failure == nil ? .applied(project: live?.fingerprint)
                          : .failed(.notDurable(confirmation.failure!)), &decisions)
        case .teardownDisable(let id):
            disableBecameDurable(id, failure: confirmation.failure, &decisions)
        }
    }
}
