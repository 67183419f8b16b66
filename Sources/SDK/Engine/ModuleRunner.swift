import SDKCore

/// Runs the modules' work, in order, one module at a time each: synchronous signals on the
/// core's thread, awaited hooks started through the environment.
///
/// While an awaited hook of a module runs, later work for that module waits behind it, even
/// when the hook overran its bound (it is then abandoned, and its late return is ignored by the
/// engine): a released instance's hook never overlaps the next instance's `initialize` and
/// `start`. A failure while handling a signal counts against the instance (generation) the
/// signal was for, so an old instance's failure never shows up as a new instance's failed start.
///
/// Kept by the ``EngineShell``, on its thread.
struct ModuleRunner {
    /// One piece of module work.
    enum Work {
        /// Deliver a signal without waiting (its failure is kept for the instance's start).
        case deliver(ModuleSignal, ModuleContext)
        /// Run hook `hook` for a signal; its end comes back as `moduleHookCompleted`.
        case hook(UInt64, ModuleSignal, ModuleContext)
    }

    private var waiting: [String: [Work]] = [:]
    private var running: [String: UInt64] = [:]
    private var failures: [String: [UInt64: String]] = [:]

    /// Queues `work` for `module` and runs what can run now.
    mutating func submit<Environment>(_ work: Work, to module: String, core: EngineShell<Environment>) {
        guard core.environment.hasModule(module) else {
            if case .hook(let hook, _, _) = work { completed(hook, failure: nil, core: core) }
            return
        }
        waiting[module, default: []].append(work)
        drain(module, core: core)
    }

    /// An awaited hook returned (possibly long after its bound).
    mutating func hookReturned<Environment>(module: String, hook: UInt64, failure: String?, core: EngineShell<Environment>) {
        guard running[module] == hook else { return }
        running[module] = nil
        completed(hook, failure: failure, core: core)
        drain(module, core: core)
    }

    /// The engine stopped waiting for `hook` (its bound passed): the module is told to stop.
    /// The module's later work still waits until it actually returns.
    func hookAbandoned<Environment>(_ hook: UInt64, core: EngineShell<Environment>) {
        for (module, running) in running where running == hook {
            core.environment.abandonAwaitedHook(hook, module: module)
        }
    }

    private mutating func drain<Environment>(_ name: String, core: EngineShell<Environment>) {
        while running[name] == nil, let work = waiting[name]?.first {
            waiting[name]?.removeFirst()
            run(work, name, core: core)
        }
    }

    private mutating func run<Environment>(_ work: Work, _ name: String, core: EngineShell<Environment>) {
        let environment = core.environment
        switch work {
        case .deliver(let signal, let context):
            do {
                try environment.process(signal, context: context, module: name)
            } catch {
                failures[name, default: [:]][context.generation] = "\(error)"
            }
        case .hook(let hook, let signal, let context) where signal.isAwaited:
            running[name] = hook
            let inbox = core.inbox
            inbox.effectBegan()
            environment.startAwaitedHook(hook, signal, context: context, module: name) { failure in
                inbox.post(.moduleHookReturned(module: name, hook: hook, failure: failure))
                inbox.effectEnded()
            }
        case .hook(let hook, let signal, let context):
            var failure: String?
            if signal == .start {
                // The start reports what went wrong delivering this instance's signals.
                failure = failures[name]?[context.generation]
                failures[name] = failures[name]?.filter { $0.key > context.generation }
            } else {
                do {
                    try environment.process(signal, context: context, module: name)
                } catch {
                    failure = "\(error)"
                }
            }
            completed(hook, failure: failure, core: core)
        }
    }

    /// The module's failure text is cut to ``FreeText/limit``: a module's error may be of any size.
    private func completed<Environment>(_ hook: UInt64, failure: String?, core: EngineShell<Environment>) {
        core.inbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: failure.map { FreeText.bounded($0) })), .none))
    }
}
