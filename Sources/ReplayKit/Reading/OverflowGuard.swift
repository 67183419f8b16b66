import Journal
import SDK

/// Refuses facts and snapshots whose numbers would overflow the SDK's arithmetic.
///
/// `SDKState.evolve` and `decide` add to identifiers (`id + 1`), attempts and times without
/// overflow checks: fine for what the SDK writes, a trap for a hostile journal. `replay` folds
/// journals from the field, so it checks every value those operations touch first, with bounds
/// far beyond anything real (2^62 identifiers, 2^61 µs ≈ 73,000 years, 2^40 ms delays).
enum OverflowGuard {
    static let identifierLimit: UInt64 = 1 << 62
    static let timeLimit: Int64 = 1 << 61
    static let millisecondsLimit: Int64 = 1 << 40
    static let attemptLimit = 1 << 20
    static let countLimit = 1 << 50

    /// Why a record stamped `time` cannot be folded, or nil.
    static func problem(with time: JournalTime) -> String? {
        saneTime(time) ? nil : "timestamp \(time.microsecondsSince1970) µs is out of range"
    }

    /// Why `fact` cannot be folded safely, or nil when it can.
    static func problem(with fact: Fact) -> String? {
        var checker = Checker()
        checker.check(fact)
        return checker.problem
    }

    /// Why `state` (from a snapshot) cannot be folded from safely, or nil when it can.
    static func problem(with state: SDKState) -> String? {
        var checker = Checker()
        checker.check(state)
        return checker.problem
    }

    static func saneTime(_ time: JournalTime) -> Bool {
        (-timeLimit...timeLimit).contains(time.microsecondsSince1970)
    }

    /// Collects the first problem found.
    private struct Checker {
        var problem: String?

        mutating func require(_ condition: Bool, _ what: @autoclosure () -> String) {
            if problem == nil && !condition { problem = "\(what()) is out of range" }
        }

        mutating func identifier(_ value: UInt64, _ what: String) {
            require(value < OverflowGuard.identifierLimit, what)
        }

        mutating func time(_ value: JournalTime, _ what: String) {
            require(OverflowGuard.saneTime(value), what)
        }

        mutating func attempt(_ value: Int, _ what: String = "attempt") {
            require((-OverflowGuard.attemptLimit...OverflowGuard.attemptLimit).contains(value), what)
        }

        mutating func count(_ value: Int, _ what: String) {
            require((-OverflowGuard.countLimit...OverflowGuard.countLimit).contains(value), what)
        }

        mutating func milliseconds(_ value: Int64, _ what: String) {
            require((-OverflowGuard.millisecondsLimit...OverflowGuard.millisecondsLimit).contains(value), what)
        }

        mutating func check(_ rules: RetryRules) {
            count(rules.maxAttempts, "retry maxAttempts")
            milliseconds(rules.baseDelayMilliseconds, "retry base delay")
            milliseconds(rules.maxDelayMilliseconds, "retry max delay")
            count(rules.jwtRefreshBudget, "JWT refresh budget")
        }

        mutating func check(_ project: ProjectRef) {
            check(project.retry)
        }

        mutating func check(_ rules: EngineRules) {
            count(rules.gateCapacity, "gate capacity")
            count(rules.gateByteCapacity, "gate byte capacity")
            count(rules.queueCapacity, "queue capacity")
            count(rules.queueByteCapacity, "queue byte capacity")
            count(rules.bulkEventLimit, "bulk event limit")
            count(rules.bulkByteLimit, "bulk byte limit")
            milliseconds(rules.disableDurabilityBoundMilliseconds, "disable durability bound")
            milliseconds(rules.moduleHookBoundMilliseconds, "module hook bound")
            if case .deliverToOutgoing(let timeout) = rules.pendingEvents { milliseconds(timeout, "pending-events timeout") }
        }

        /// A call's project and its count, the only numbers a call carries past the call limits
        /// (its sizes are theirs): read from the calls that carry one, not a list of the others
        /// (`CallDeclarationTests` names this place for a new call declared with a count).
        mutating func check(_ call: PublicCall) {
            if let project = call.carriedProject { check(project) }
            if case .inAppFetch(let count) = call { attempt(count, "fetch count") }
        }

        mutating func check(_ timer: TimerPurpose) {
            switch timer {
            case .retry(let task, let attempt): identifier(task.number, "task id"); self.attempt(attempt)
            case .teardownBound(let id, _): identifier(id.number, "switch id")
            case .moduleHookBound(let hook): identifier(hook, "hook number")
            }
        }

        mutating func check(_ fact: Fact) {
            switch fact {
            case .engineStarted(let start): check(start.options)
            case .callReceived(let received): check(received.call)
            case .transportCompleted(let completion):
                identifier(completion.task.number, "task id")
                attempt(completion.attempt)
            case .timerFired(let timer): check(timer)
            case .durabilityConfirmed(let confirmation): identifier(confirmation.request, "durability request")
            case .moduleHookCompleted(let completion): identifier(completion.hook, "hook number")
            case .authTokenReceived(let receipt): identifier(receipt.request, "auth request")
            case .callbacksDelivered(let id): identifier(id.number, "switch id")
            case .initialized(let project, let generation):
                check(project)
                identifier(generation, "generation")
            case .gateDecided(_, let decision):
                switch decision {
                case .queued(let id, let position, let received):
                    identifier(id.number, "switch id")
                    count(position, "gate position")
                    check(received.call)
                case .replayed(let id, _): identifier(id.number, "switch id")
                // Decisions that name no switch.
                case .executed, .inline, .refused: break
                }
            case .taskQueued(let task):
                identifier(task.id.number, "task id")
                time(task.createdAt, "task creation time")
            case .taskDispatched(let task, let attempt):
                identifier(task.number, "task id")
                self.attempt(attempt)
            case .taskCompleted(let task, _), .eventBatched(let task, _, _): identifier(task.number, "task id")
            case .disableCoalesced(let task, _): identifier(task.number, "task id")
            case .eventsExpired(let task, let calls):
                identifier(task.number, "task id")
                count(calls.count, "expired events")
            case .timerSet(let timer, let due):
                check(timer)
                time(due, "timer due time")
            case .retryScheduled(let task, let attempt, let due, _):
                // What it folds into is a retry timer's: bounded as `timerSet`'s.
                check(.retry(task, attempt: attempt))
                time(due, "retry due time")
            case .authRefreshRequested(_, let request): identifier(request, "auth request")
            case .authRefreshFinished(_, let request, _): identifier(request, "auth request")
            case .moduleEventDelivered(_, _, _, let generation): identifier(generation, "generation")
            case .moduleHookStarted(let hook, _, _): identifier(hook, "hook number")
            case .moduleHookFinished(let hook, _): identifier(hook, "hook number")
            case .durabilityRequested(let request, let purpose):
                identifier(request, "durability request")
                if case .teardownDisable(let id) = purpose { identifier(id.number, "switch id") }
            case .switchRouted(let id, _, let project, let routing):
                identifier(id.number, "switch id")
                check(project)
                switch routing {
                case .absorbed(let target), .enqueued(let target), .moved(let target): identifier(target.number, "switch id")
                // Routings that name no other switch.
                case .started, .noop, .initialization: break
                }
            case .switchStarted(let id, _, let to):
                identifier(id.number, "switch id")
                check(to)
            case .teardownStepBegan(let id, _): identifier(id.number, "switch id")
            case .teardownStepFinished(let id, _, _, let elapsed):
                identifier(id.number, "switch id")
                require((-OverflowGuard.timeLimit...OverflowGuard.timeLimit).contains(elapsed), "step duration")
            case .switchLanded(let id, _, _, _), .switchCancelled(let id, _): identifier(id.number, "switch id")
            case .linkResolutionStarted(let job, _, _, _, let generation), .staleResultRefused(let job, _, let generation, _):
                identifier(job, "job number")
                identifier(generation, "generation")
            case .linkResolved(let resolution): identifier(resolution.job, "job number")
            case .journalGap(let gap):
                time(gap.from, "gap start")
                time(gap.to, "gap end")
            // Facts the guard has nothing to bound in.
            case .notificationReceived, .engineStopping, .networkReachable, .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed,
                 .callRejected, .callResolved, .callsResolved, .identityChanged, .pushTokenChanged, .attributionChanged,
                 .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted, .unknownUserEventsReleased,
                 .messagesStored, .storageCleared,
                 .unknown: break
            }
        }

        mutating func check(_ state: SDKState) {
            identifier(state.generation, "generation")
            identifier(state.nextTaskNumber, "next task number")
            identifier(state.nextRequestNumber, "next request number")
            identifier(state.switching.nextSwitchNumber, "next switch number")
            time(state.time, "state time")
            check(state.rules)
            if let live = state.live { check(live) }
            for project in state.projects.values { check(project) }
            count(state.queueFootprint, "queued bytes")
            count(state.unknownUserSessions, "unknown-user sessions")
            count(state.switching.gateBytes, "gate bytes")
            for (id, queued) in state.tasks {
                identifier(id.number, "task id")
                time(queued.task.createdAt, "task creation time")
                switch queued.status {
                case .queued: break
                case .inFlight(let attempt), .retrying(let attempt), .awaitingToken(let attempt): self.attempt(attempt)
                }
            }
            for auth in state.auth.values { count(auth.refreshesUsed, "JWT refreshes used") }
            for call in state.pendingCalls.values { time(call.madeAt, "call time") }
            for (timer, due) in state.timers {
                check(timer)
                time(due, "timer due time")
            }
            for hook in state.hooks.values { time(hook.startedAt, "hook start time") }
            for held in state.switching.gate {
                time(held.madeAt, "gated call time")
                count(held.bytes, "gated call bytes")
                check(held.call.call)
            }
            if let run = state.switching.inFlight {
                identifier(run.id.number, "switch id")
                time(run.startedAt, "switch start time")
                time(run.stepStartedAt, "step start time")
                check(run.to)
                if let from = run.from { check(from) }
            }
            for request in state.switching.queue {
                identifier(request.id.number, "switch id")
                check(request.project)
            }
            if let awaiting = state.switching.awaitingCallbacks { identifier(awaiting.number, "switch id") }
            for lifecycle in state.modules.values { identifier(lifecycle.generation, "module generation") }
        }
    }
}
