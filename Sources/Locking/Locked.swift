#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that is only reachable while holding its lock, a POSIX mutex, with a condition
/// variable for threads that wait for the value to change (``withLock(waitingUntil:_:)``).
///
/// The project uses this instead of `Synchronization.Mutex` because ThreadSanitizer does not see
/// `Mutex`'s futex-based locking on Linux and reports races on correctly locked state, while it
/// understands `pthread_mutex_lock`. CI runs the stress suites under ThreadSanitizer and expects
/// zero reports, so every lock in the package is one of these.
public final class Locked<Value> {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    /// The value, out of line: reached through a pointer, under the mutex, an access needs no
    /// run-time exclusivity check (a class's stored property has one on every access) and no
    /// accessor coroutine, so `withLock` inlines to the lock, the body and the unlock.
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        storage.initialize(to: value)
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: `body` must not take
    /// this lock again.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }

    /// Waits until `ready` holds for the value (the lock released while waiting), then runs
    /// `body` with exclusive access to it. `ready` is asked again each time another thread calls
    /// ``notifyWaiters()``; a thread that changes what a waiter waits for must call it after.
    @inlinable
    public func withLock<Result, Failure: Error>(waitingUntil ready: (Value) -> Bool,
                                                 _ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(storage.pointee) { pthread_cond_wait(condition, mutex) }
        return try body(&storage.pointee)
    }

    /// Wakes every thread waiting in ``withLock(waitingUntil:_:)`` to look at the value again.
    public func notifyWaiters() {
        pthread_cond_broadcast(condition)
    }

    /// Runs `body` with exclusive access to the value, handing it `argument` to consume: a
    /// value moved in under the lock (into the locked value, or back out through the result),
    /// where a closure capturing it could only copy it, or take it out of an optional.
    @inlinable
    public func withLock<Argument, Result>(handing argument: consuming Argument,
                                           _ body: (inout Value, consuming Argument) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&storage.pointee, argument)
    }
}

// Unchecked: the value is only ever accessed inside `withLock`, under the mutex, so sharing the
// box between threads is safe whenever the value itself may cross threads.
extension Locked: @unchecked Sendable where Value: Sendable {} // the value is only reached under the mutex
