import Locking
import SDKCore

/// A completion that runs at most once, however many times and from however many threads
/// ``deliver(_:)`` is called.
///
/// ``URLSessionTransport`` races a request's own completion against its timeout watchdog and
/// against cancellation; the engine races an auth provider's answer against its bound;
/// whichever delivers first wins and the others are ignored.
final class OneShotCompletion<Value: Sendable>: Sendable {
    private let pending: Locked<(@Sendable (Value) -> Void)?>

    init(_ completion: @escaping @Sendable (Value) -> Void) {
        pending = Locked(completion)
    }

    /// Calls the completion with `result` if nothing was delivered before.
    /// - Returns: true when this call delivered the result, false when an earlier one had.
    @discardableResult
    func deliver(_ result: Value) -> Bool {
        let completion = pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
        guard let completion else { return false }
        // Called outside the lock: the completion may do anything, including sending again.
        completion(result)
        return true
    }
}
