import Dispatch
import Locking

/// Holds the journal's next `fdatasync` while armed: the demo's way of making a durability
/// request answer late, deterministically.
///
/// The demo arms it just before a call whose flush it wants late; with a group-commit thread
/// and a segment size the demo never reaches, that flush's sync (on the group-commit thread)
/// is the only one while armed. Arming holds the next sync until ``release()``.
final class SyncHold: Sendable {
    private let armed = Locked(false)
    private let opened = DispatchSemaphore(value: 0)
    /// Counts the syncs that were held.
    let arrivals = ArrivalCounter()

    /// Holds the next group-commit sync.
    func arm() {
        armed.withLock { $0 = true }
    }

    /// Lets the held sync (or the next one) finish; disarms.
    func release() {
        let wasArmed = armed.withLock { state -> Bool in
            defer { state = false }
            return state
        }
        if wasArmed { opened.signal() }
    }

    /// Called by a file about to sync: blocks while the hold is armed.
    func passThrough() {
        guard armed.withLock({ $0 }) else { return }
        arrivals.arrive()
        opened.wait()
    }
}
