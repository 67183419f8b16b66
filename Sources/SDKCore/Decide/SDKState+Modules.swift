import Journal

extension SDKState {
    /// Delivers a signal to a module without waiting (journaled).
    mutating func deliver(_ signal: ModuleSignal, to module: String, _ decisions: inout InputDecisions) {
        guard let live else { return }
        emit(.moduleEventDelivered(module: module, event: signal, project: live.fingerprint, generation: generation), &decisions)
    }

    /// Starts an awaited hook: the module handles `signal`, and its completion (or its bound
    /// passing first) comes back as an input.
    mutating func startHook(_ module: String, _ signal: ModuleSignal, _ decisions: inout InputDecisions) {
        let hook = takeRequestNumber()
        emit(.moduleHookStarted(hook: hook, module: module, event: signal), &decisions)
        let due = decisions.time.advanced(byMilliseconds: rules.moduleHookBoundMilliseconds)
        emit(.timerSet(.moduleHookBound(hook: hook), due: due), &decisions)
    }

    /// Starts the modules of a new instance: initialize, then start, each journaled; the start
    /// is awaited (a module that fails or overruns gives the start a warning).
    mutating func startModules(_ decisions: inout InputDecisions) {
        for module in moduleDescriptors {
            deliver(.initialize, to: module.name, &decisions)
            deliver(.start, to: module.name, &decisions)
            startHook(module.name, .start, &decisions)
        }
    }

    mutating func handleHookCompletion(_ completion: ModuleHookCompletion, _ decisions: inout InputDecisions) {
        guard let pending = hooks[completion.hook] else { return }   // already overran
        let problem = completion.failure.map { "module \(pending.module) failed \(pending.signal.label): \($0)" }
        emit(.moduleHookFinished(hook: completion.hook, problem: problem), &decisions)
        hookFinished(&decisions)
    }

    /// A hook ended: a teardown step waiting on hooks may be done.
    mutating func hookFinished(_ decisions: inout InputDecisions) {
        continueSwitchAfterHooks(&decisions)
    }

    /// Whether any hook for `signal` (or any signal matching) is still running.
    func hooksPending(_ matches: (PendingHook) -> Bool) -> Bool {
        hooks.values.contains(where: matches)
    }

    mutating func handleNotification(_ name: String, _ decisions: inout InputDecisions) {
        guard let live, instanceRunning else { return }
        for module in moduleDescriptors where module.notifications.contains(name) {
            deliver(.notification(name), to: module.name, &decisions)
        }
        if name == "foreground" && email == nil && userID == nil {
            emit(.unknownUserSessionCounted(project: live.fingerprint), &decisions)
        }
    }
}
