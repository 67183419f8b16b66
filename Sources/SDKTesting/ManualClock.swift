import Journal
import Locking
import SDK
import SDKCore

/// A clock that moves only when told to: ``advance(by:)`` runs every timer that falls due, in due
/// order, on the calling thread. Tests and simulations use it instead of sleeping.
public final class ManualClock: SDKClock, Sendable {
    private struct Timer {
        let due: JournalTime
        let order: UInt64
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: JournalTime
        var timers: [Timer] = []
        var nextOrder: UInt64 = 0
    }

    private let state: Locked<State>

    /// A clock that reads `start` until advanced.
    public init(start: JournalTime = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)) {
        state = Locked(State(now: start))
    }

    public func now() -> JournalTime {
        state.withLock { $0.now }
    }

    public func schedule(at due: JournalTime, _ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if due <= state.now { return true }
            state.timers.append(Timer(due: due, order: state.nextOrder, action: action))
            state.nextOrder += 1
            return false
        }
        if runNow { action() }
    }

    /// Moves the clock forward by `duration`, running the timers that fall due on the way.
    public func advance(by duration: Duration) {
        advance(to: now().advanced(by: duration))
    }

    /// Moves the clock to `target` (never backwards), running due timers in due order.
    public func advance(to target: JournalTime) {
        while true {
            let next = state.withLock { state -> Timer? in
                guard let index = state.timers.indices.min(by: { (state.timers[$0].due, state.timers[$0].order) < (state.timers[$1].due, state.timers[$1].order) }),
                      state.timers[index].due <= target
                else {
                    state.now = max(state.now, target)
                    return nil
                }
                let timer = state.timers.remove(at: index)
                state.now = max(state.now, timer.due)
                return timer
            }
            guard let next else { return }
            next.action()
        }
    }

    /// How many timers are waiting.
    public var pendingTimers: Int { state.withLock { $0.timers.count } }

    /// How many waiting timers are due at `due` exactly: a test that knows when a timer it
    /// caused will be due can wait for that one, whatever other timers come and go.
    public func pendingTimers(dueAt due: JournalTime) -> Int {
        state.withLock { $0.timers.count { $0.due == due } }
    }

    /// When the earliest waiting timer is due.
    public var nextDue: JournalTime? { state.withLock { $0.timers.map(\.due).min() } }
}
