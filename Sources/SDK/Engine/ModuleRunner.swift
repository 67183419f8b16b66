/// Runs the modules' work, in order, one module at a time each: synchronous events on the
/// engine thread, awaited hooks on a task.
///
/// While an awaited hook of a module runs, later work for that module waits behind it, even
/// when the hook overran its bound (it is then cancelled, and its late return is ignored by the
/// engine): a released instance's hook never overlaps the next instance's `initialize` and
/// `start`. A failure while handling an event counts against the instance (generation) the
/// event was for, so an old instance's failure never shows up as a new instance's failed start.
///
/// Engine thread only.
final class ModuleRunner {
    /// One piece of module work.
    enum Work {
        /// Deliver an event without waiting (its failure is kept for the instance's start).
        case deliver(ModuleEvent, ModuleContext)
        /// Run hook `hook` for an event; its end comes back as `moduleHookCompleted`.
        case hook(UInt64, ModuleEvent, ModuleContext)
    }

    private let modules: [String: any SDKModule]
    private let mailbox: Mailbox<EngineMessage>
    private let activity: ActivityTracker
    private var waiting: [String: [Work]] = [:]
    private var running: [String: (hook: UInt64, task: Task<Void, Never>)] = [:]
    private var failures: [String: [UInt64: String]] = [:]

    init(modules: [String: any SDKModule], mailbox: Mailbox<EngineMessage>, activity: ActivityTracker) {
        self.modules = modules
        self.mailbox = mailbox
        self.activity = activity
    }

    /// Queues `work` for `module` and runs what can run now.
    func submit(_ work: Work, to module: String) {
        guard modules[module] != nil else {
            if case .hook(let hook, _, _) = work { completed(hook, failure: nil) }
            return
        }
        waiting[module, default: []].append(work)
        drain(module)
    }

    /// An awaited hook's task returned (possibly long after its bound).
    func hookReturned(module: String, hook: UInt64, failure: String?) {
        guard running[module]?.hook == hook else { return }
        running[module] = nil
        completed(hook, failure: failure)
        drain(module)
    }

    /// The engine stopped waiting for `hook` (its bound passed): the module's task is told to
    /// stop. The module's later work still waits until it actually returns.
    func hookAbandoned(_ hook: UInt64) {
        for entry in running.values where entry.hook == hook { entry.task.cancel() }
    }

    /// Whether an awaited hook of `module` is still running.
    func isBusy(_ module: String) -> Bool { running[module] != nil }

    private func drain(_ name: String) {
        while running[name] == nil, let work = waiting[name]?.first {
            waiting[name]?.removeFirst()
            run(work, name)
        }
    }

    private func run(_ work: Work, _ name: String) {
        guard let module = modules[name] else { return }
        switch work {
        case .deliver(let event, let context):
            do {
                try module.process(event: event, context: context)
            } catch {
                failures[name, default: [:]][context.generation] = "\(error)"
            }
        case .hook(let hook, let event, let context) where event.isAwaited:
            activity.begin()
            let mailbox = mailbox
            let activity = activity
            let task = Task {
                var failure: String?
                do {
                    try await module.processAwaited(event: event, context: context)
                } catch {
                    failure = "\(error)"
                }
                mailbox.post(.moduleHookReturned(module: name, hook: hook, failure: failure))
                if activity.end() { mailbox.post(.wake) }
            }
            running[name] = (hook, task)
        case .hook(let hook, let event, let context):
            var failure: String?
            if event == .start {
                // The start reports what went wrong delivering this instance's events.
                failure = failures[name]?[context.generation]
                failures[name] = failures[name]?.filter { $0.key > context.generation }
            } else {
                do {
                    try module.process(event: event, context: context)
                } catch {
                    failure = "\(error)"
                }
            }
            completed(hook, failure: failure)
        }
    }

    private func completed(_ hook: UInt64, failure: String?) {
        mailbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: failure)), .none))
    }
}
