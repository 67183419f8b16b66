import Journal

/// What a journaled fact asks of the world, as a value: the engine shell performs it (sends,
/// arms, runs, delivers) and its result comes back as an input. Derived from the facts of one
/// batch by ``SDKState/effects(of:)``; never journaled.
package enum Effect: Sendable, Hashable {
    /// Send attempt `attempt` of task `task` (its request, with the key and JWT it needs).
    case send(TaskID, attempt: Int)
    /// Arm the timer for `purpose`, due at `due`.
    case armTimer(TimerPurpose, due: JournalTime)
    /// Ask the auth provider of `project` for a fresh JWT (refresh request `request`).
    case refreshToken(ProjectFingerprint, request: UInt64)
    /// Make everything journaled so far durable, then answer durability request `request`.
    case requestDurability(UInt64)
    /// Hand `signal` to module `module`, for the instance (`project`, `generation`).
    case deliverModuleSignal(ModuleSignal, module: String, project: ProjectFingerprint, generation: UInt64)
    /// Run hook `hook` of module `module` for `signal`, for the instance (`project`, `generation`).
    case runHook(UInt64, ModuleSignal, module: String, project: ProjectFingerprint, generation: UInt64)
    /// Hook `hook` has no instance to run for: it completes at once.
    case completeHookAtOnce(UInt64)
    /// The journal finished hook `hook` (its bound passed, if it still runs): stop waiting for it.
    case abandonHook(UInt64)
    /// Another user (or none) is identified from here on.
    case identityChanged(user: UserIdentity?)
    /// Instance `generation` started: cached JWTs are forgotten.
    case instanceStarted(generation: UInt64)
    /// Ask tracked link `url` for its redirect (job `job`).
    case resolveLink(job: UInt64, url: String)
    /// A switch landed: its completions are counted from here on.
    case beginLanding(SwitchID)
    /// Run call `call`'s completion with `outcome`; a completion of a landing (`landing`)
    /// hears its result, a link's its destination.
    case complete(CallID, CallOutcome, landing: Landing?, linkDestination: String?)
    /// Every completion of landing `switch` was dispatched: the next switch may start once
    /// they all returned.
    case armLanding(SwitchID)
    /// Erase the journal (``PublicCall/eraseLocalData``, call `call`) and forget cached JWTs,
    /// then report it as ``Fact/localDataErased(_:)``.
    case eraseLocalData(call: CallID)
}

extension Effect {
    /// The landing a completion belongs to: the switch and its result.
    package struct Landing: Sendable, Hashable {
        package var id: SwitchID
        package var result: SwitchResult

        package init(id: SwitchID, result: SwitchResult) {
            self.id = id
            self.result = result
        }
    }
}
