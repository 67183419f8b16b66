#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that is only reachable while holding its lock, a POSIX mutex.
///
/// The project uses this instead of `Synchronization.Mutex` because ThreadSanitizer does not see
/// `Mutex`'s futex-based locking on Linux and reports races on correctly locked state, while it
/// understands `pthread_mutex_lock`. CI runs the stress suites under ThreadSanitizer and expects
/// zero reports, so every lock in the package is one of these.
public final class Locked<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: `body` must not take
    /// this lock again.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&unsafeValue)
    }

    @usableFromInline
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @usableFromInline
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    @usableFromInline
    var unsafeValue: Value {
        _read { yield value }
        _modify { yield &value }
    }
}

// Unchecked: the value is only ever accessed inside `withLock`, under the mutex, so sharing the
// box between threads is safe whenever the value itself may cross threads.
extension Locked: @unchecked Sendable where Value: Sendable {} // the value is only reached under the mutex
