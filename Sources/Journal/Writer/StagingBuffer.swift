/// A growable byte buffer the committer gathers compressed blocks in before one `write` call.
// Unchecked: reachable only through the committer (``CommitSink``) inside its lock (one thread
// at a time).
final class StagingBuffer: @unchecked Sendable { // only used under the committer's lock
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Returns room for at least `byteCount` more bytes at the end; call ``commit(_:)`` after filling it.
    func reserve(_ byteCount: Int) -> UnsafeMutableRawPointer {
        if count + byteCount > capacity {
            var newCapacity = capacity * 2
            while newCapacity < count + byteCount { newCapacity *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            grown.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }
        return base + count
    }

    func commit(_ byteCount: Int) {
        precondition(count + byteCount <= capacity)
        count += byteCount
    }

    func append(_ bytes: [UInt8]) {
        let destination = reserve(bytes.count)
        bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        commit(bytes.count)
    }

    func removeAll() {
        count = 0
    }
}
