import Journal

/// The decisions made for one input, in order, each already applied to the state.
struct Decisions {
    /// The input's time: every decision made for it carries it.
    let time: JournalTime
    private(set) var facts: [Fact] = []

    init(time: JournalTime) {
        self.time = time
        facts.reserveCapacity(8)
    }

    mutating func record(_ fact: Fact) {
        facts.append(fact)
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
        var log = Decisions(time: time)
        // What the input answers, looked up before the input itself is applied.
        let timerWasSet = if case .timerFired(let purpose) = input { timers[purpose] != nil } else { false }
        let durabilityPurpose = if case .durabilityConfirmed(let confirmation) = input {
            durabilityWaits[confirmation.request]
        } else {
            DurabilityWait?.none
        }
        let linkJob = if case .linkResolved(let resolution) = input { linkJobs[resolution.job] } else { LinkJob?.none }
        emit(input, &log)
        switch input {
        case .engineStarted(let start): handleEngineStart(start, &log)
        case .callReceived(let received): handleCall(received, &log)
        case .transportCompleted(let completion): handleTransport(completion, &log)
        case .timerFired(let purpose): if timerWasSet { handleTimer(purpose, &log) }
        case .durabilityConfirmed(let confirmation):
            if let durabilityPurpose { handleDurability(confirmation, purpose: durabilityPurpose, &log) }
        case .moduleHookCompleted(let completion): handleHookCompletion(completion, &log)
        case .authTokenReceived(let receipt): handleAuthToken(receipt, &log)
        case .callbacksDelivered: startNextSwitchIfReady(&log)
        case .notificationReceived(let name): handleNotification(name, &log)
        case .engineStopping: handleStop(&log)
        case .linkResolved(let resolution): handleLinkResolution(resolution, job: linkJob, &log)
        default: break
        }
        // A landed switch's held calls go on as the delivery queue makes room.
        if switching.replaying != nil && input != .engineStopping { replayHeldCalls(&log) }
        return log.facts
    }

    /// Applies a decision and records it.
    mutating func emit(_ fact: Fact, _ log: inout Decisions) {
        evolve(fact, at: log.time)
        log.record(fact)
    }

    /// Resolves a pending call, once: a call already resolved is left alone.
    mutating func resolve(_ call: CallID?, _ outcome: CallOutcome, _ log: inout Decisions) {
        guard let call, pendingCalls[call] != nil else { return }
        emit(.callResolved(call: call, outcome: outcome), &log)
    }

    /// A fresh request number (auth refreshes, durability requests, module hooks).
    mutating func takeRequestNumber() -> UInt64 {
        let number = nextRequestNumber
        nextRequestNumber &+= 1
        return number
    }

    private mutating func handleEngineStart(_ start: EngineStart, _ log: inout Decisions) {
        // Resume delivery: requests that were on the wire go again, in order.
        for project in taskOrder.keys.sorted() { dispatchIfIdle(project, &log) }
        // A switch cut short while it started its instance: the instance it had begun died with
        // the previous process, so it starts again here (the old start hooks are answered as
        // interrupted, which makes the step noisy).
        if let run = switching.inFlight, run.step == .startInstance, !instanceRunning {
            emit(.initialized(project: run.to, generation: generation &+ 1), &log)
            startModules(&log)
        }
        // A switch queued behind one whose callbacks the previous process never ran starts now.
        startNextSwitchIfReady(&log)
    }

    private mutating func handleDurability(_ confirmation: DurabilityConfirmation, purpose: DurabilityWait, _ log: inout Decisions) {
        switch purpose {
        case .flush(let call):
            resolve(call, confirmation.failure == nil ? .applied(project: live?.fingerprint)
                          : .failed(.retriesExhausted("journal not durable: \(confirmation.failure!)")), &log)
        case .teardownDisable(let id):
            disableBecameDurable(id, failure: confirmation.failure, &log)
        }
    }
}
