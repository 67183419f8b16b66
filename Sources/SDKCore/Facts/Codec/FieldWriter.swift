import Journal

/// Writes a tagged-field message: each field is `varint(number << 3 | wire type)` then its
/// value, so a reader can skip fields it does not know. Wire types: 0 varint, 1 fixed 64-bit,
/// 2 length-delimited (bytes, strings, nested messages). Nil optionals are simply not written.
///
/// The bytes are written here rather than through the journal's `ByteWriter`: encoding is on the
/// engine's hot path (every fact of every call), and calls into another module are neither
/// inlined nor specialised.
///
/// It writes through a pointer into a scratch buffer on the caller's stack (see
/// ``withScratch(_:)``), moved onto the heap only when a message outgrows it: appending to an
/// `Array` byte by byte costs a uniqueness and a capacity check per byte, and encoding is most
/// of what recording a call costs.
struct FieldWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0
    /// Whether `base` was allocated here (else it is the caller's scratch buffer).
    private var ownsBuffer: Bool

    private init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        base = scratch.baseAddress!
        capacity = scratch.count
        ownsBuffer = false
    }

    deinit {
        if ownsBuffer { base.deallocate() }
    }

    /// Runs `body` with a writer over a scratch buffer on the stack: no allocation unless the
    /// message outgrows it.
    static func withScratch<Result>(_ body: (inout FieldWriter) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { scratch in
            var writer = FieldWriter(scratch: scratch)
            return body(&writer)
        }
    }

    /// The bytes written, valid until the writer next writes or ends.
    var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// A copy of the bytes written.
    var bytes: [UInt8] {
        Array(written)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
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

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    private mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        reserve(source.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: from, byteCount: source.count)
        count += source.count
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func tag(_ field: Int, _ wire: UInt64) {
        varint(UInt64(field) << 3 | wire)
    }

    @inline(__always)
    private mutating func varint(_ value: UInt64) {
        reserve(Varint.maxLength)
        var remaining = value
        while remaining >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: remaining) | 0x80
            count += 1
            remaining >>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: remaining)
        count += 1
    }

    mutating func unsigned(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        varint(value)
    }

    mutating func unsigned(_ field: Int, _ value: UInt64?) {
        if let value { unsigned(field, value) }
    }

    mutating func signed(_ field: Int, _ value: Int64) {
        tag(field, 0)
        varint(Varint.zigzag(value))
    }

    mutating func signed(_ field: Int, _ value: Int64?) {
        if let value { signed(field, value) }
    }

    mutating func int(_ field: Int, _ value: Int) {
        signed(field, Int64(value))
    }

    mutating func bool(_ field: Int, _ value: Bool) {
        unsigned(field, value ? 1 : 0)
    }

    mutating func double(_ field: Int, _ value: Double) {
        tag(field, 1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { append($0) }
    }

    mutating func double(_ field: Int, _ value: Double?) {
        if let value { double(field, value) }
    }

    mutating func bytes(_ field: Int, _ value: UnsafeRawBufferPointer) {
        tag(field, 2)
        varint(UInt64(value.count))
        append(value)
    }

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        value.withUnsafeBytes { bytes(field, $0) }
    }

    mutating func string(_ field: Int, _ value: String) {
        tag(field, 2)
        varint(UInt64(value.utf8.count))
        append(value)
    }

    mutating func string(_ field: Int, _ value: String?) {
        if let value { string(field, value) }
    }

    /// A nested message, written in place: a one-byte length is reserved (the common case)
    /// and widened once the message is longer, so the bytes are those of a length-prefixed copy.
    mutating func message(_ field: Int, _ value: some FieldCodable) {
        tag(field, 2)
        let lengthAt = count
        append(0)
        value.encode(to: &self)
        let length = count - lengthAt - 1
        if length < 0x80 {
            base[lengthAt] = UInt8(truncatingIfNeeded: length)
            return
        }
        // Widen the length: move the message right by the extra bytes, then write the varint.
        let lengthBytes = Varint.length(of: UInt64(length))
        reserve(lengthBytes - 1)
        (base + lengthAt + lengthBytes).update(from: base + lengthAt + 1, count: length)
        var remaining = UInt64(length)
        var at = lengthAt
        while remaining >= 0x80 {
            base[at] = UInt8(truncatingIfNeeded: remaining) | 0x80
            at += 1
            remaining >>= 7
        }
        base[at] = UInt8(truncatingIfNeeded: remaining)
        count += lengthBytes - 1
    }

    mutating func message(_ field: Int, _ value: (some FieldCodable)?) {
        if let value { message(field, value) }
    }

    /// A repeated nested message: one field per element, in order.
    mutating func messages(_ field: Int, _ values: some Sequence<some FieldCodable>) {
        for value in values { message(field, value) }
    }

    /// Repeated strings: one field per element, in order.
    mutating func strings(_ field: Int, _ values: some Sequence<String>) {
        for value in values { string(field, value) }
    }
}

/// A value with a tagged-field encoding.
protocol FieldCodable {
    func encode(to writer: inout FieldWriter)
    init(from reader: inout FieldReader) throws(CodecError)
}

extension FieldCodable {
    /// The value as a standalone message.
    func encodedMessage() -> [UInt8] {
        FieldWriter.withScratch { writer in
            encode(to: &writer)
            return writer.bytes
        }
    }
}
