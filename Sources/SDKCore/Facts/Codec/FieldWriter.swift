import Journal

/// Writes a tagged-field message: each field is `varint(number << 3 | wire type)` then its
/// value, so a reader can skip fields it does not know. Wire types: 0 varint, 1 fixed 64-bit,
/// 2 length-delimited (bytes, strings, nested messages). Nil optionals are simply not written.
///
/// The bytes are written here rather than through the journal's `ByteWriter`: encoding is on the
/// engine's hot path (every fact of every call), and calls into another module are neither
/// inlined nor specialised.
///
/// It writes into ``ScratchBytes`` (a stack buffer, moved to the heap only for large messages).
struct FieldWriter: ~Copyable {
    private var output: ScratchBytes
    /// Whether a data object is written as its JSON when that reads back exactly (format 1.3,
    /// ``dataJSON(_:_:)``); else, and always before 1.3, as one entry per member.
    var writesDataObjectsAsJSON = true

    /// Runs `body` with a writer over a scratch buffer on the stack.
    static func withScratch<Result>(capacity: Int = 512, _ body: (inout FieldWriter) -> Result) -> Result {
        ScratchBytes.withScratch(capacity: capacity) { bytes in
            var writer = FieldWriter(output: bytes)
            let result = body(&writer)
            bytes = writer.finish()
            return result
        }
    }

    private init(output: consuming ScratchBytes) {
        self.output = output
    }

    /// Hands the bytes back to the scratch buffer's owner.
    private consuming func finish() -> ScratchBytes {
        output
    }

    /// How many bytes are written.
    var count: Int { output.count }

    /// The bytes written, valid until the writer next writes or ends.
    var written: UnsafeBufferPointer<UInt8> { output.written }

    /// A copy of the bytes written.
    var bytes: [UInt8] { output.array }

    private mutating func tag(_ field: Int, _ wire: UInt64) {
        output.appendVarint(UInt64(field) << 3 | wire)
    }

    mutating func unsigned(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        output.appendVarint(value)
    }

    mutating func unsigned(_ field: Int, _ value: UInt64?) {
        if let value { unsigned(field, value) }
    }

    mutating func signed(_ field: Int, _ value: Int64) {
        tag(field, 0)
        output.appendVarint(Varint.zigzag(value))
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
        withUnsafeBytes(of: value.bitPattern.littleEndian) { output.append($0) }
    }

    mutating func double(_ field: Int, _ value: Double?) {
        if let value { double(field, value) }
    }

    mutating func bytes(_ field: Int, _ value: UnsafeBufferPointer<UInt8>) {
        bytes(field, UnsafeRawBufferPointer(value))
    }

    mutating func bytes(_ field: Int, _ value: UnsafeRawBufferPointer) {
        tag(field, 2)
        output.appendVarint(UInt64(value.count))
        output.append(value)
    }

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        value.withUnsafeBytes { bytes(field, $0) }
    }

    mutating func string(_ field: Int, _ value: String) {
        tag(field, 2)
        output.appendVarint(UInt64(value.utf8.count))
        output.append(value)
    }

    mutating func string(_ field: Int, _ value: String?) {
        if let value { string(field, value) }
    }

    /// A nested message, written in place: a one-byte length is reserved (the common case)
    /// and widened once the message is longer, so the bytes are those of a length-prefixed copy.
    mutating func message(_ field: Int, _ value: some FieldCodable) {
        message(field) { value.encode(to: &$0) }
    }

    /// A call id's message (its 16 bytes in field 1), written as one block: the same bytes as
    /// ``message(_:_:)-(_,some FieldCodable)`` of it. Three of these go into every call's
    /// records, so they skip the general path (docs/BENCHMARKS.md).
    mutating func message(_ field: Int, _ value: CallID) {
        guard field < 16 else { return message(field) { value.encode(to: &$0) } }
        value.withBytes { bytesMessage(field, $0) }
    }

    /// A fingerprint's message (its 8 bytes in field 1), written as one block: the same bytes
    /// as ``message(_:_:)-(_,some FieldCodable)`` of it.
    mutating func message(_ field: Int, _ value: ProjectFingerprint) {
        guard field < 16 else { return message(field) { value.encode(to: &$0) } }
        value.withBytes { bytesMessage(field, $0) }
    }

    /// The message of field `field` (below 16) holding `bytes` (fewer than 126) in its field 1,
    /// written as one block: tag, length, field 1's tag and length, the bytes.
    @inline(__always)
    private mutating func bytesMessage(_ field: Int, _ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        output.appendWriting(atMost: count + 4) { start in
            start[0] = UInt8(field << 3 | 2)
            start[1] = UInt8(count + 2)
            start[2] = 0x0A
            start[3] = UInt8(count)
            UnsafeMutableRawPointer(start + 4).copyMemory(from: bytes.baseAddress!, byteCount: count)
            return count + 4
        }
    }

    /// The message of a batched event without a body (its call's message in field 1, as format
    /// 1.3 records an executed track that joins a bulk), written as one block: the same bytes as
    /// ``message(_:_:)-(_,some FieldCodable)`` of `BatchedEvent(call: call, body: [])`. One goes
    /// into nearly every `track` call's records, so it skips the general path.
    mutating func bodilessEvent(_ field: Int, call: CallID) {
        guard field < 16 else { return message(field, BatchedEvent(call: call, body: [])) }
        call.withBytes { bytes in
            output.appendWriting(atMost: 22) { start in
                start[0] = UInt8(field << 3 | 2)
                start[1] = 20
                start[2] = 0x0A
                start[3] = 18
                start[4] = 0x0A
                start[5] = 16
                UnsafeMutableRawPointer(start + 6).copyMemory(from: bytes.baseAddress!, byteCount: 16)
                return 22
            }
        }
    }

    /// A batched event's message: a bodiless one (format 1.3's executed track that joins a bulk)
    /// in one block (``bodilessEvent(_:call:)``), any other as its message.
    @inline(__always)
    mutating func batchedEvent(_ field: Int, _ event: BatchedEvent) {
        if event.body.isEmpty { bodilessEvent(field, call: event.call) } else { message(field, event) }
    }

    /// A task id's message (its number in field 1), written as one block: the same bytes as
    /// ``message(_:_:)-(_,some FieldCodable)`` of it.
    mutating func message(_ field: Int, _ value: TaskID) {
        guard field < 16 else { return message(field) { value.encode(to: &$0) } }
        output.appendWriting(atMost: 3 + Varint.maxLength) { start in
            start[0] = UInt8(field << 3 | 2)
            start[2] = 0x08
            let length = Varint.store(value.number, at: start + 3)
            start[1] = UInt8(1 + length)
            return 3 + length
        }
    }

    mutating func message(_ field: Int, _ value: ProjectFingerprint?) {
        if let value { message(field, value) }
    }

    /// A repeated call id message: one field per id, in order.
    mutating func messages(_ field: Int, _ values: [CallID]) {
        for value in values { message(field, value) }
    }

    /// A nested message whose fields `body` writes, in place (as ``message(_:_:)-(_,some FieldCodable)``).
    @inline(__always)
    mutating func message(_ field: Int, _ body: (inout FieldWriter) -> Void) {
        tag(field, 2)
        let lengthAt = output.count
        output.append(0)
        body(&self)
        endLengthDelimited(at: lengthAt)
    }

    /// Writes the length of the bytes after the one byte reserved at `lengthAt` there, widened
    /// to a longer varint when they are 128 or more.
    private mutating func endLengthDelimited(at lengthAt: Int) {
        let length = output.count - lengthAt - 1
        if length < 0x80 {
            output.set(UInt8(truncatingIfNeeded: length), at: lengthAt)
        } else {
            output.replaceByte(at: lengthAt, withVarint: UInt64(length))
        }
    }

    /// `members` as their JSON (``DataValue/writeJSON(to:depth:fidelity:)``, nested at most
    /// ``DataValue/maxDepth`` deep), a length-delimited field `field`, when that JSON reads back
    /// exactly (``JSONFidelity/exact``, through ``DataValue/members(ofJSON:baseOffset:)``) and ``writesDataObjectsAsJSON``:
    /// returns true. Otherwise nothing is written, and it returns false.
    mutating func dataJSON(_ field: Int, _ members: [String: DataValue]) -> Bool {
        guard writesDataObjectsAsJSON else { return false }
        let start = output.count
        tag(field, 2)
        let lengthAt = output.count
        output.append(0)
        var fidelity = JSONFidelity.exact
        DataValue.object(members).writeJSON(to: &output, depth: DataValue.maxDepth, fidelity: &fidelity)
        guard fidelity == .exact else {
            output.truncate(to: start)
            return false
        }
        endLengthDelimited(at: lengthAt)
        return true
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
