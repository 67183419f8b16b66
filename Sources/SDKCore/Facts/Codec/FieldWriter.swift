import Journal

/// Writes a tagged-field message: each field is `varint(number << 3 | wire type)` then its
/// value, so a reader can skip fields it does not know. Wire types: 0 varint, 1 fixed 64-bit,
/// 2 length-delimited (bytes, strings, nested messages). Nil optionals are simply not written.
///
/// The bytes are written here rather than through the journal's `ByteWriter`: encoding is on the
/// engine's hot path (every fact of every call), and calls into another module are neither
/// inlined nor specialised.
struct FieldWriter {
    private(set) var bytes: [UInt8]

    init() {
        bytes = []
        bytes.reserveCapacity(64)
    }

    /// A writer that appends after what `existing` holds, taking its storage (`existing` is
    /// left empty until ``finish()`` hands the bytes back).
    init(continuing existing: inout [UInt8]) {
        bytes = []
        swap(&bytes, &existing)
    }

    /// The bytes written, with whatever the writer continued.
    consuming func finish() -> [UInt8] {
        bytes
    }

    private mutating func tag(_ field: Int, _ wire: UInt64) {
        varint(UInt64(field) << 3 | wire)
    }

    /// Nearly every tag and length is one byte: that case is one append, without a call into
    /// the journal's general varint writer.
    @inline(__always)
    private mutating func varint(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else {
            Varint.append(value, to: &bytes)
        }
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
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ field: Int, _ value: Double?) {
        if let value { double(field, value) }
    }

    mutating func bytes(_ field: Int, _ value: some Collection<UInt8>) {
        tag(field, 2)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: Int, _ value: String) {
        tag(field, 2)
        varint(UInt64(value.utf8.count))
        value.appendUTF8(to: &bytes)
    }

    mutating func string(_ field: Int, _ value: String?) {
        if let value { string(field, value) }
    }

    /// A nested message, written in place: a one-byte length is reserved (the common case)
    /// and widened once the message is longer, so the bytes are those of a length-prefixed copy.
    mutating func message(_ field: Int, _ value: some FieldCodable) {
        tag(field, 2)
        let lengthAt = bytes.count
        bytes.append(0)
        value.encode(to: &self)
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(truncatingIfNeeded: length)
        } else {
            var prefix: [UInt8] = []
            Varint.append(UInt64(length), to: &prefix)
            bytes.replaceSubrange(lengthAt...lengthAt, with: prefix)
        }
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
        var writer = FieldWriter()
        encode(to: &writer)
        return writer.bytes
    }
}
