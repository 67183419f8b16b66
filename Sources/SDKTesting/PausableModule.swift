import Locking
import SDK

/// A module that can be told to keep the SDK waiting in its `willSwitchProject` hook, so the
/// demo can act in the moment between a teardown's clear steps and the new instance's start.
///
/// Otherwise it does nothing: it hears its lifecycle signals and returns.
public final class PausableModule: SDKModule {
    public let info: ModuleInfo
    /// Counts the `willSwitchProject` hooks that were held.
    public let arrivals = ArrivalCounter()
    private let state = Locked<(armed: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

    public init(name: String) {
        info = ModuleInfo(name: name, version: EngagementSDK.version)
    }

    public func process(signal: ModuleSignal, context: ModuleContext) throws {}

    public func processAwaited(signal: ModuleSignal, context: ModuleContext) async throws {
        guard case .willSwitchProject = signal else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let held = state.withLock { state -> Bool in
                guard state.armed else { return false }
                state.armed = false
                state.waiting = continuation
                return true
            }
            if held { arrivals.arrive() } else { continuation.resume() }
        }
    }

    /// Holds the next `willSwitchProject` hook until ``release()``.
    public func arm() {
        state.withLock { $0.armed = true }
    }

    /// Lets the held hook return.
    public func release() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiting = nil; state.armed = false }
            return state.waiting
        }
        waiting?.resume()
    }
}
