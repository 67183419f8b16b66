import ReplayKit
import SDK

extension EngineStore {
    /// An effect as one line in the store's words, `replay cat`'s where a fact says the same
    /// (an outcome, a timer, a module's event): `send t1 attempt 2`,
    /// `armTimer retry t1 attempt 2 due t+2520ms`,
    /// `complete 00000004 applied on B (landing s1: switchedWithWarnings)`.
    package func describe(_ effect: Effect) -> String {
        describe(Self.text(effect))
    }

    /// The line before the store names projects and times.
    static func text(_ effect: Effect) -> String {
        /// What `replay cat` writes after the kind and the first word of `fact`.
        func words(_ fact: Fact, dropping count: Int) -> String {
            FactSummary.text(fact).split(separator: " ", maxSplits: count, omittingEmptySubsequences: false).last.map(String.init) ?? ""
        }
        switch effect {
        case .send(let task, let attempt):
            return "send \(task) attempt \(attempt)"
        case .armTimer(let purpose, let due):
            return "armTimer " + words(.timerSet(purpose, due: due), dropping: 1)
        case .refreshToken(let project, let request):
            return "refreshToken #\(request) for \(project)"
        case .requestDurability(let request):
            return "requestDurability #\(request)"
        case .deliverModuleSignal(let signal, let module, let project, let generation):
            return "deliverModuleSignal " + words(.moduleEventDelivered(module: module, event: signal, project: project, generation: generation), dropping: 1)
        case .runHook(let hook, let signal, let module, let project, let generation):
            return "runHook " + words(.moduleHookStarted(hook: hook, module: module, event: signal), dropping: 1) + " (\(project), generation \(generation))"
        case .completeHookAtOnce(let hook):
            return "completeHookAtOnce #\(hook)"
        case .abandonHook(let hook):
            return "abandonHook #\(hook)"
        case .identityChanged(let user):
            return "identityChanged " + (user.map { "\($0)" } ?? "nobody")
        case .instanceStarted(let generation):
            return "instanceStarted generation \(generation)"
        case .resolveLink(let job, let url):
            return "resolveLink #\(job) \(url)"
        case .beginLanding(let id):
            return "beginLanding \(id)"
        case .complete(let call, let outcome, let landing, let destination):
            return "complete " + words(.callResolved(call: call, outcome: outcome), dropping: 1)
                + (landing.map { " (landing \($0.id): \($0.result))" } ?? "")
                + (destination.map { " to \($0)" } ?? "")
        case .armLanding(let id):
            return "armLanding \(id)"
        case .eraseLocalData(let call):
            return "eraseLocalData (call \(call))"
        }
    }
}
