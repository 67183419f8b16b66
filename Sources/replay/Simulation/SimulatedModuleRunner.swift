import SDK

/// `ModuleRunner`, single-threaded: per module, work runs in order, one piece at a time; an
/// awaited hook runs for a while on the virtual clock (maybe past its bound) and later work of
/// its module waits until it actually returns, even after the engine stopped waiting for it.
/// A failure while handling an event counts against the instance (generation) it was for.
///
/// It also plays the modules themselves, which are not reentrant: a module asked to handle
/// anything while one of its awaited hooks still runs, or whose start reports another
/// instance's failure, is a shell bug the story reports.
final class SimulatedModuleRunner {
    enum Work {
        /// Deliver an event without waiting (its failure is kept for the instance's start).
        case deliver(ModuleEvent, generation: UInt64)
        /// Run hook `hook` for an event; its end comes back as `moduleHookCompleted`.
        case hook(UInt64, ModuleEvent, generation: UInt64)
    }

    private unowned let engine: SimulatedEngine
    private let modules: Set<String>
    private var waiting: [String: [Work]] = [:]
    private var running: [String: UInt64] = [:]
    private var failures: [String: [UInt64: String]] = [:]
    /// The module's side: the awaited hook each module is inside right now (until it returns).
    private var inside: [String: UInt64] = [:]

    init(engine: SimulatedEngine, modules: Set<String>) {
        self.engine = engine
        self.modules = modules
    }

    /// `ModuleRunner.submit`.
    func submit(_ work: Work, to module: String) {
        guard modules.contains(module) else {
            if case .hook(let hook, _, _) = work { completed(hook, failure: nil) }
            return
        }
        waiting[module, default: []].append(work)
        drain(module)
    }

    /// The module's awaited hook returned (the task's end, before the engine hears of it).
    func moduleReturned(module: String, hook: UInt64, failure: String?) {
        if inside[module] == hook { inside[module] = nil }
        engine.post(.moduleHookReturned(module: module, hook: hook, failure: failure))
    }

    /// `ModuleRunner.hookReturned`.
    func hookReturned(module: String, hook: UInt64, failure: String?) {
        guard running[module] == hook else { return }
        running[module] = nil
        completed(hook, failure: failure)
        drain(module)
    }

    /// `ModuleRunner.hookAbandoned`: the engine stopped waiting; the simulated module ignores
    /// the cancellation and returns when it returns (the worst case for what waits behind it).
    func hookAbandoned(_ hook: UInt64) {}

    private func drain(_ name: String) {
        while running[name] == nil, let work = waiting[name]?.first {
            waiting[name]?.removeFirst()
            run(work, name)
        }
    }

    private func run(_ work: Work, _ name: String) {
        let world = engine.world
        if let busy = inside[name] {
            world.report(.contract, "launch \(engine.launch): module \(name) was given \(work) while its awaited hook \(busy) still ran")
        }
        switch work {
        case .deliver(let event, let generation):
            if world.chance(world.profile.moduleFailure) {
                failures[name, default: [:]][generation] = "simulated failure handling \(event) (generation \(generation))"
            }
        case .hook(let hook, let event, let generation) where event.isAwaited:
            let failure: String? = world.chance(world.profile.moduleFailure) ? "simulated failure of \(name) (generation \(generation))" : nil
            inside[name] = hook
            running[name] = hook
            world.schedule(.hookReturns(launch: engine.launch, module: name, hook: hook, failure: failure),
                           after: world.draw(world.profile.hookMilliseconds))
        case .hook(let hook, let event, let generation):
            var failure: String?
            if event == .start {
                failure = failures[name]?[generation]
                failures[name] = failures[name]?.filter { $0.key > generation }
                if let failure, !failure.hasSuffix("(generation \(generation))") {
                    world.report(.contract, "launch \(engine.launch): module \(name)'s start for generation \(generation) reported another instance's failure: \(failure)")
                }
            } else if world.chance(world.profile.moduleFailure) {
                failure = "simulated failure handling \(event) (generation \(generation))"
            }
            completed(hook, failure: failure)
        }
    }

    private func completed(_ hook: UInt64, failure: String?) {
        engine.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: failure)), .none))
    }
}
