import Journal

/// Bytes written through a pointer into a scratch buffer on the caller's stack
/// (``withScratch(_:)``), moved onto the heap only when they outgrow it: what the journal codec
/// (``FieldWriter``), request bodies and every JSON writer (``JSONValue``, `replay`'s rows and
/// lines) write into.
///
/// Appending to an `Array` byte by byte costs a uniqueness and a capacity check per append, and
/// encoding is most of what recording a call costs. Copy the result out (``array``,
/// ``written``) before the scratch buffer's scope ends.
package struct ScratchBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    package private(set) var count = 0
    /// Whether `base` was allocated here (else it is the caller's scratch buffer).
    private var ownsBuffer = false

    /// Runs `body` over a scratch buffer of `capacity` bytes on the stack.
    package static func withScratch<Result>(capacity: Int = 512, _ body: (inout ScratchBytes) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var bytes = ScratchBytes(base: scratch.baseAddress!, capacity: scratch.count)
            return body(&bytes)
        }
    }

    /// ``withScratch(capacity:_:)`` for a body that returns nothing. Not generic: the generic
    /// one, called from another module, looks its result type up at run time on every call
    /// (once per row of an export).
    package static func withScratch(capacity: Int = 512, _ body: (inout ScratchBytes) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var bytes = ScratchBytes(base: scratch.baseAddress!, capacity: scratch.count)
            body(&bytes)
        }
    }

    /// Runs `body` over the caller's buffer at `base` (`capacity` bytes, which `body` may
    /// outgrow), then `finish` over the bytes written: at `base` when they fit, else in the
    /// heap copy they moved to, valid only during `finish`. For a writer that appends lines to
    /// a buffer of its own without copying each one there.
    package static func withBuffer(at base: UnsafeMutablePointer<UInt8>, capacity: Int, _ body: (inout ScratchBytes) -> Void,
                                   finish: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        var bytes = ScratchBytes(base: base, capacity: capacity)
        body(&bytes)
        try finish(bytes.written)
    }

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    deinit {
        if ownsBuffer { base.deallocate() }
    }

    /// The bytes written, valid until the next write or the end of the scratch buffer's scope.
    package var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// A copy of the bytes written.
    package var array: [UInt8] {
        Array(written)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    package mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    private mutating func grow(toHold needed: Int) {
        let newCapacity = Swift.max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsBuffer { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBuffer = true
    }

    /// Lets `write` write up to `maximum` bytes at the end through a pointer; `write` returns how
    /// many it wrote (at most `maximum`), which are then part of the bytes.
    @inline(__always)
    package mutating func appendWriting(atMost maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        let written = write(base + count)
        precondition(written <= maximum, "wrote more than it reserved")
        count += written
    }

    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    package mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        reserve(source.count)
        let to = UnsafeMutableRawPointer(base + count)
        // Most appends are a few bytes (a row's keys, a null): two overlapping words, or two
        // overlapping halves of one, copy them without calling memcpy.
        switch source.count {
        case 8...16:
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + source.count - 8).storeBytes(of: (from + source.count - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        case 4..<8:
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            (to + source.count - 4).storeBytes(of: (from + source.count - 4).loadUnaligned(as: UInt32.self), as: UInt32.self)
        default:
            to.copyMemory(from: from, byteCount: source.count)
        }
        count += source.count
    }

    package mutating func append(_ source: [UInt8]) {
        source.withUnsafeBytes { append($0) }
    }

    /// The UTF-8 bytes of `text`: read where they lie (a native string), else from a copy.
    package mutating func append(_ text: String) {
        text.utf8.withContiguousBytes { append(UnsafeRawBufferPointer($0)) }
    }

    /// The bytes of a literal.
    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// `value` as an unsigned LEB128 varint.
    @inline(__always)
    package mutating func appendVarint(_ value: UInt64) {
        reserve(Varint.maxLength)
        count += Varint.store(value, at: base + count)
    }

    /// `value` in decimal, as `String(value)` spells it.
    package mutating func appendDecimal(_ value: UInt64) {
        appendWriting(atMost: 20) { JSONValue.writeDecimal(value, at: $0) }
    }

    /// Drops the bytes from `count` on (`count` at most ``count``).
    package mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count)
        self.count = count
    }

    /// Overwrites the byte at `offset` (below ``count``).
    package mutating func set(_ byte: UInt8, at offset: Int) {
        precondition(offset < count)
        base[offset] = byte
    }

    /// Replaces the one byte at `offset` with the varint `value`, moving what follows it.
    package mutating func replaceByte(at offset: Int, withVarint value: UInt64) {
        precondition(offset < count)
        let length = Varint.length(of: value)
        reserve(length - 1)
        (base + offset + length).update(from: base + offset + 1, count: count - offset - 1)
        _ = Varint.store(value, at: base + offset)
        count += length - 1
    }
}
