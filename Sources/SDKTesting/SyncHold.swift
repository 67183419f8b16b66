import Dispatch
import Locking

/// Holds the journal's next `fdatasync` while armed: the demo's way of making a durability
/// request answer late, deterministically.
///
/// The demo arms it just before a call whose flush it wants late; with a group-commit thread
/// and a segment size the demo never reaches, that flush's sync (on the group-commit thread)
/// is the only one while armed. Arming holds the next sync until ``release()``.
public final class SyncHold: Sendable {
    private let armed = Locked(false)
    private let opened = DispatchSemaphore(value: 0)
    /// Counts the syncs that were held.
    public let arrivals = ArrivalCounter()

    /// A hold that lets every sync through until armed.
    public init() {}

    /// Holds the next group-commit sync.
    public func arm() {
        armed.withLock { $0 = true }
    }

    /// Lets the held sync (or the next one) finish; disarms.
    public func release() {
        let wasArmed = armed.withLock { state -> Bool in
            defer { state = false }
            return state
        }
        if wasArmed { opened.signal() }
    }

    /// Called by a file about to sync: blocks while the hold is armed.
    public func passThrough() {
        guard armed.withLock({ $0 }) else { return }
        arrivals.arrive()
        opened.wait()
    }
}
