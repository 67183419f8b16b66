import Foundation
import Journal
import SDK

/// The world the simulated app's ``EngineShell`` runs in: the virtual clock, the simulated
/// network and backend, the app's auth provider, the callback queue (which, with
/// `FaultProfile.concurrentCallbacks`, runs its items in any order a concurrent queue may),
/// the modules, and the device's keyring, all on the world's one thread and its seed.
///
/// It also plays the modules, which are not reentrant: a module asked to handle anything while
/// one of its awaited hooks still runs is a shell bug the story reports.
///
/// Unchecked Sendable: the simulation is single-threaded (see ``SimulatedProcess``).
final class SimulatedEnvironment: EngineEnvironment, @unchecked Sendable { // single-threaded: every closure handed to the engine runs inside the world's loop
    private unowned let world: SimulationWorld
    private let launch: Int
    private let modules: Set<String>
    weak var process: SimulatedProcess?
    /// The module's side: the awaited hook each module is inside right now (until it returns).
    private var inside: [String: UInt64] = [:]
    private var callbackQueue: [CallbackWork] = []
    private var callbackQueueHead = 0

    init(world: SimulationWorld, launch: Int, modules: Set<String>) {
        self.world = world
        self.launch = launch
        self.modules = modules
    }

    // MARK: - Clock

    func readClock() -> ClockReading { world.clockReading }

    func schedule(atMonotonicMicroseconds due: Int64, _ action: @escaping @Sendable () -> Void) {
        world.schedule(.engine(launch: launch, action), at: world.time(atMonotonicMicroseconds: due))
    }

    // MARK: - Network and auth

    /// A request leaves for the simulated network, stamped with the user and instance its
    /// effect belongs to (so the backend can tell a JWT issued for someone else); a GET that
    /// must not follow redirects is a tracked link, answered by the links host.
    func send(_ request: TransportRequest, for owner: EffectOwner, completion: @escaping @Sendable (TransportResult) -> Void) {
        if !request.followsRedirects {
            world.resolveLink(request.url.absoluteString, launch: launch, completion: completion)
            return
        }
        world.transmit(SimulatedRequest(request, user: owner.user?.value, instance: owner.instance), launch: launch, completion: completion)
    }

    /// The world's auth provider answers for the user and instance the request is made for.
    func requestToken(for project: ProjectFingerprint, from provider: any AuthProvider, owner: EffectOwner,
                      completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        guard let core = process?.core else { return }
        world.askAuthProvider(project: project, user: owner.user?.value, instance: owner.instance,
                              launch: launch, bound: core.state.rules.authProviderBoundMilliseconds, completion: completion)
    }

    // MARK: - The callback queue

    func runCallback(landing: SwitchID?, _ body: @escaping @Sendable () -> Void) {
        let wasIdle = callbackQueueHead == callbackQueue.count
        callbackQueue.append(CallbackWork(landing: landing, body: body))
        if wasIdle { world.schedule(.callbackRuns(launch: launch), after: world.draw(world.profile.callbackDelayMilliseconds)) }
    }

    /// Runs the callback queue's next item (with `FaultProfile.concurrentCallbacks`, any
    /// pending one, as a concurrent queue may); schedules the one after it.
    func runNextCallback() {
        guard callbackQueueHead < callbackQueue.count else { return }
        if world.profile.concurrentCallbacks && callbackQueue.count - callbackQueueHead > 1 {
            let pick = callbackQueueHead + Int(world.draw(0...Int64(callbackQueue.count - callbackQueueHead - 1)))
            callbackQueue.swapAt(callbackQueueHead, pick)
        }
        let work = callbackQueue[callbackQueueHead]
        callbackQueueHead += 1
        if callbackQueueHead == callbackQueue.count {
            callbackQueue.removeAll(keepingCapacity: true)
            callbackQueueHead = 0
        } else {
            world.schedule(.callbackRuns(launch: launch), after: world.draw(world.profile.callbackDelayMilliseconds))
        }
        run(work)
    }

    /// Runs every completion still on the callback queue (the app's queue outlives the SDK's
    /// stop); reactions are not made: the SDK they would call is shut down.
    func runRemainingCallbacks() {
        while callbackQueueHead < callbackQueue.count {
            let work = callbackQueue[callbackQueueHead]
            callbackQueueHead += 1
            run(work)
        }
        callbackQueue.removeAll()
        callbackQueueHead = 0
    }

    private func run(_ work: CallbackWork) {
        world.runningCallback = (landed: work.landing != nil, reactionsAllowed: process?.stopped == false)
        work.body()
        world.runningCallback = nil
    }

    // MARK: - Modules

    func hasModule(_ name: String) -> Bool { modules.contains(name) }

    /// The module handles `signal`: it fails now and then (for the instance the signal is for).
    func process(_ signal: ModuleSignal, context: ModuleContext, module name: String) throws {
        checkNotInside(name, given: signal)
        if signal == .reset { world.messagesResetting() }
        if world.moduleFailureOverride?(context.generation) ?? world.chance(world.profile.moduleFailure) {
            throw SimulatedFailure(description: "simulated failure handling \(signal) (generation \(context.generation))")
        }
    }

    /// An awaited hook runs for a while on the virtual clock (maybe past its bound) and then
    /// returns, maybe failed; the module ignores the cancellation (the worst case for what
    /// waits behind it).
    func startAwaitedHook(_ hook: UInt64, _ signal: ModuleSignal, context: ModuleContext, module name: String,
                          returned: @escaping @Sendable (String?) -> Void) {
        checkNotInside(name, given: "hook \(hook) (\(signal))")
        let fails = world.moduleFailureOverride?(context.generation) ?? world.chance(world.profile.moduleFailure)
        let failure: String? = fails ? "simulated failure of \(name) (generation \(context.generation))" : nil
        inside[name] = hook
        world.schedule(.engine(launch: launch) { [self] in
            if inside[name] == hook { inside[name] = nil }
            returned(failure)
        }, after: world.draw(world.profile.hookMilliseconds))
    }

    func abandonAwaitedHook(_ hook: UInt64, module name: String) {}

    private func checkNotInside(_ name: String, given work: @autoclosure () -> Any) {
        if let busy = inside[name] {
            world.report(.contract, "launch \(launch): module \(name) was given \(work()) while its awaited hook \(busy) still ran")
        }
    }

    // MARK: - Keyring and journal

    func storedKey(for project: ProjectFingerprint) -> String? { world.keyring[project] }

    /// Immediate, and it survives any crash here (the real one is queued off the engine thread
    /// and takes microseconds). While the world refuses keyring writes, files nothing and
    /// reports the refusal.
    func storeKey(_ entry: KeyringEntry, for project: ProjectFingerprint, finished: @escaping @Sendable (_ failure: String?) -> Void) {
        if let refusal = world.keyringWriteRefusal { return finished(refusal) }
        world.keyring[project] = entry.apiKey
        finished(nil)
    }

    func reopenRecorder() throws -> (any FactRecorder)? {
        try process?.reopenRecorder()
    }

    // MARK: - Observation

    func inputHandled(_ input: Fact, facts: [Fact], state: SDKState, lastSequence: UInt64) {
        process?.inputHandled(input, facts: facts.count, state: state)
        world.inputObserver?(facts, state)
    }

    func journalFailed(reason: String) {
        process?.journalFailed(reason: reason)
    }

    func journalResumed(after gap: JournalGap, state: SDKState, lastSequence: UInt64) {
        process?.journalResumed(after: gap, state: state, lastSequence: lastSequence)
        world.inputObserver?([.journalGap(gap)], state)
    }
}
