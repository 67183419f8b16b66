internal import CAtomics

/// A 64-bit word read and written atomically, without a lock: for a flag or a counter that one
/// thread reads on every pass of a hot path (a journal's attention flag, call ids). Reads see the
/// last write with acquire/release order; ``add(_:)`` is a relaxed read-modify-write.
///
/// Unchecked Sendable: the word is only ever touched through C11 atomic operations
/// (CAtomics), which make concurrent access from any thread well-defined.
public final class AtomicWord: @unchecked Sendable { // safe: the word is touched only through C11 atomic operations.
    private let word: UnsafeMutablePointer<UInt64>

    /// A word holding `value`.
    public init(_ value: UInt64 = 0) {
        word = .allocate(capacity: 1)
        word.initialize(to: value)
    }

    deinit {
        word.deallocate()
    }

    /// The word now.
    public func load() -> UInt64 { catomics_load(word) }

    /// Sets the word.
    public func store(_ value: UInt64) { catomics_store(word, value) }

    /// Adds `amount` (wrapping) and returns the sum.
    @discardableResult
    public func add(_ amount: UInt64) -> UInt64 { catomics_add(word, amount) }
}
