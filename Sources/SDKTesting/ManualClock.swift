import Journal
import Locking
import SDK
import SDKCore

/// A clock that moves only when told to: ``advance(by:)`` moves both of its clocks and runs every
/// timer that falls due, in due order, on the calling thread; ``jumpWallClock(by:)`` moves the
/// wall clock alone, as a user setting the date does. Tests and simulations use it instead of
/// sleeping.
///
/// Its monotonic clock reads, in microseconds, what its wall clock read at the start, so until
/// the wall clock jumps the two read alike and ``now()`` is both.
public final class ManualClock: SDKClock, Sendable {
    private struct Timer {
        let due: Int64
        let order: UInt64
        let action: @Sendable () -> Void
    }

    private struct State {
        /// The monotonic clock, µs.
        var monotonic: Int64
        /// The wall clock minus the monotonic clock, µs.
        var wallOffset: Int64 = 0
        var boot: UInt64
        var timers: [Timer] = []
        var nextOrder: UInt64 = 0
    }

    private let state: Locked<State>

    /// A clock whose two clocks read `start` until advanced. `boot` tells this clock's boot from
    /// another's: an SDK relaunched over the same journal with a clock of the same boot carries
    /// the journal's time on by the monotonic clock, with another by the wall clock.
    public init(start: JournalTime = JournalTime(microsecondsSince1970: 1_764_000_000_000_000), boot: UInt64 = 1) {
        state = Locked(State(monotonic: start.microsecondsSince1970, boot: boot))
    }

    public func read() -> ClockReading {
        state.withLock {
            ClockReading(wall: JournalTime(microsecondsSince1970: $0.monotonic &+ $0.wallOffset), monotonicMicroseconds: $0.monotonic,
                         boot: $0.boot)
        }
    }

    public func schedule(atMonotonicMicroseconds due: Int64, _ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if due <= state.monotonic { return true }
            state.timers.append(Timer(due: due, order: state.nextOrder, action: action))
            state.nextOrder += 1
            return false
        }
        if runNow { action() }
    }

    /// The monotonic clock, as the time timers are due at (``advance(to:)``, ``nextDue``): the
    /// wall clock's reading too until ``jumpWallClock(by:)`` moved that.
    public func now() -> JournalTime {
        state.withLock { JournalTime(microsecondsSince1970: $0.monotonic) }
    }

    /// What the wall clock reads.
    public var wallClock: JournalTime {
        state.withLock { JournalTime(microsecondsSince1970: $0.monotonic &+ $0.wallOffset) }
    }

    /// Moves the wall clock alone by `jump`, forward or back (the user set the date, the network
    /// corrected it): no timer runs, and the monotonic clock does not move.
    public func jumpWallClock(by jump: Duration) {
        state.withLock { $0.wallOffset &+= jump.wholeMicroseconds }
    }

    /// A reboot: the monotonic clock counts from a new origin (`monotonic`, µs) in a new boot;
    /// the wall clock reads on as before. Waiting timers are dropped, as a process's are.
    public func reboot(monotonicAt monotonic: Int64 = 0) {
        state.withLock { state in
            let wall = state.monotonic &+ state.wallOffset
            state.monotonic = monotonic
            state.wallOffset = wall &- monotonic
            state.boot &+= 1
            state.timers.removeAll()
        }
    }

    /// Moves both clocks forward by `duration`, running the timers that fall due on the way.
    public func advance(by duration: Duration) {
        advance(to: now().advanced(by: duration))
    }

    /// Moves the monotonic clock to `target` (never backwards), and the wall clock with it,
    /// running due timers in due order.
    public func advance(to target: JournalTime) {
        let target = target.microsecondsSince1970
        while true {
            let next = state.withLock { state -> Timer? in
                guard let index = state.timers.indices.min(by: { (state.timers[$0].due, state.timers[$0].order) < (state.timers[$1].due, state.timers[$1].order) }),
                      state.timers[index].due <= target
                else {
                    state.monotonic = max(state.monotonic, target)
                    return nil
                }
                let timer = state.timers.remove(at: index)
                state.monotonic = max(state.monotonic, timer.due)
                return timer
            }
            guard let next else { return }
            next.action()
        }
    }

    /// How many timers are waiting.
    public var pendingTimers: Int { state.withLock { $0.timers.count } }

    /// How many waiting timers are due at `due` exactly (on the monotonic clock, ``now()``): a
    /// test that knows when a timer it caused will be due can wait for that one, whatever other
    /// timers come and go.
    public func pendingTimers(dueAt due: JournalTime) -> Int {
        state.withLock { $0.timers.count { $0.due == due.microsecondsSince1970 } }
    }

    /// When the earliest waiting timer is due, on the monotonic clock (``now()``).
    public var nextDue: JournalTime? { state.withLock { $0.timers.map(\.due).min().map(JournalTime.init(microsecondsSince1970:)) } }
}
