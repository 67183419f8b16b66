import Foundation
import Journal
import Locking
import TestSupport
@testable import SDK

/// A module a test controls: its awaited signals wait until released, and it can fail a signal.
final class ControlledModule: SDKModule {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "injected failure" }
    }

    let info: ModuleInfo
    let notificationNames: [String] = []
    private let failsOn: ModuleSignal?
    private let holdsAwaited: Bool
    private let state = Locked<(heard: [(ModuleContext, ModuleSignal)], released: Bool, waiting: [CheckedContinuation<Void, Never>], held: Int)>(([], false, [], 0))
    private let heldSignal = Eventually<Int>()
    /// Awaited signals in progress, and the signals delivered while one was (an overlap).
    private let awaiting = Locked<(running: Int, overlapped: [ModuleSignal])>((0, []))

    init(name: String, failsOn: ModuleSignal? = nil, holdsAwaited: Bool = false) {
        info = ModuleInfo(name: name, version: "test")
        self.failsOn = failsOn
        self.holdsAwaited = holdsAwaited
    }

    func process(signal: ModuleSignal, context: ModuleContext) throws {
        state.withLock { $0.heard.append((context, signal)) }
        awaiting.withLock { if $0.running > 0 { $0.overlapped.append(signal) } }
        if signal == failsOn { throw Failure() }
    }

    func processAwaited(signal: ModuleSignal, context: ModuleContext) async throws {
        state.withLock { $0.heard.append((context, signal)) }
        awaiting.withLock { $0.running += 1 }
        defer { awaiting.withLock { $0.running -= 1 } }
        if holdsAwaited {
            await withCheckedContinuation { continuation in
                let (resume, held) = state.withLock { state -> (Bool, Int) in
                    if state.released { return (true, state.held) }
                    state.waiting.append(continuation)
                    state.held += 1
                    return (false, state.held)
                }
                if resume { continuation.resume() } else { heldSignal.completion(held) }
            }
        }
        if signal == failsOn { throw Failure() }
    }

    /// Returns once an awaited signal is being held.
    func waitUntilHolding() async {
        _ = await heldSignal.value
    }

    /// Lets every held (and future) awaited signal finish.
    func release() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Every signal heard, in order.
    var heard: [(ModuleContext, ModuleSignal)] { state.withLock { $0.heard } }

    /// Signals delivered while one of this module's awaited signals was still running.
    var overlapped: [ModuleSignal] { awaiting.withLock { $0.overlapped } }
}
