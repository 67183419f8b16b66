#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-in first-out hand-over of values from one producing thread to one consuming thread,
/// holding at most ``capacity`` values: the producer waits while it is full, the consumer while
/// it is empty. Either side may stop early: ``close()`` (consumer) makes every later ``send(_:)``
/// return false, ``finish()`` (producer) makes ``receive()`` return nil once drained.
///
/// Locks with a POSIX mutex and condition variable, which ThreadSanitizer understands (see
/// `Locked`).
///
/// Unchecked Sendable: every stored `var` (`items`, `head`, `closed`, `finished`) is read and
/// written only while `mutex` is held; the mutex and condition are created in init and destroyed
/// in deinit, when no other thread can hold a reference.
final class BoundedChannel<Element: Sendable>: @unchecked Sendable { // every var only under `mutex`
    let capacity: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var items: [Element?] = []
    private var head = 0
    private var closed = false
    private var finished = false

    init(capacity: Int) {
        precondition(capacity > 0, "a channel holds at least one value")
        self.capacity = capacity
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Producer: hands `element` over, waiting while the channel is full. Returns false (and
    /// drops `element`) when the consumer has closed the channel.
    func send(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !closed && items.count - head >= capacity { pthread_cond_wait(changed, mutex) }
        guard !closed else { return false }
        if head > 0 && head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        items.append(element)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Whether no value waits to be received (the consumer has caught up with the producer).
    var isEmpty: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return head == items.count
    }

    /// Producer: there will be no more values.
    func finish() {
        pthread_mutex_lock(mutex)
        finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Consumer: the next value, waiting while the channel is empty; nil once the producer has
    /// finished and every value was received.
    func receive() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == items.count && !finished { pthread_cond_wait(changed, mutex) }
        guard head < items.count else { return nil }
        let element = items[head].take()
        head += 1
        pthread_cond_broadcast(changed)
        return element
    }

    /// Consumer: takes no more values; a producer waiting for room, or sending later, is told so.
    /// Returns once the producer has finished, so nothing it holds outlives the consumer's use.
    func close() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        closed = true
        items.removeAll()
        head = 0
        pthread_cond_broadcast(changed)
        while !finished { pthread_cond_wait(changed, mutex) }
    }
}
