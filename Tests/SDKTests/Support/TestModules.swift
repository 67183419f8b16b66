import Foundation
import Journal
import Locking
import TestSupport
@testable import SDK

/// A module a test controls: its awaited events wait until released, and it can fail an event.
final class ControlledModule: SDKModule {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "injected failure" }
    }

    let info: ModuleInfo
    let notificationNames: [String] = []
    private let failsOn: ModuleEvent?
    private let holdsAwaited: Bool
    private let state = Locked<(heard: [(ModuleContext, ModuleEvent)], released: Bool, waiting: [CheckedContinuation<Void, Never>], held: Int)>(([], false, [], 0))
    private let heldSignal = Eventually<Int>()
    /// Awaited events in progress, and the events delivered while one was (an overlap).
    private let awaiting = Locked<(running: Int, overlapped: [ModuleEvent])>((0, []))

    init(name: String, failsOn: ModuleEvent? = nil, holdsAwaited: Bool = false) {
        info = ModuleInfo(name: name, version: "test")
        self.failsOn = failsOn
        self.holdsAwaited = holdsAwaited
    }

    func process(event: ModuleEvent, context: ModuleContext) throws {
        state.withLock { $0.heard.append((context, event)) }
        awaiting.withLock { if $0.running > 0 { $0.overlapped.append(event) } }
        if event == failsOn { throw Failure() }
    }

    func processAwaited(event: ModuleEvent, context: ModuleContext) async throws {
        state.withLock { $0.heard.append((context, event)) }
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
        if event == failsOn { throw Failure() }
    }

    /// Returns once an awaited event is being held.
    func waitUntilHolding() async {
        _ = await heldSignal.value
    }

    /// Lets every held (and future) awaited event finish.
    func release() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Every event heard, in order.
    var heard: [(ModuleContext, ModuleEvent)] { state.withLock { $0.heard } }

    /// Events delivered while one of this module's awaited events was still running.
    var overlapped: [ModuleEvent] { awaiting.withLock { $0.overlapped } }
}
