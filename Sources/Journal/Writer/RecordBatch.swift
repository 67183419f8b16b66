/// The records of one atomic append (a ``JournalWriter`` batch), their payloads back to back
/// in one buffer.
///
/// A producer that appends several small records per step fills one batch, appends it and
/// empties it with ``removeAll()``, which keeps its storage: no array per record, and no
/// allocation at all once the buffers have grown to the producer's usual step.
public struct RecordBatch: Sendable {
    /// The payloads, back to back, in record order.
    public var payloads: [UInt8] { payloadStorage }
    /// Each record's kind, in order.
    public var kinds: [UInt32] { kindStorage }
    /// Where each record's payload ends in ``payloads``, in order.
    public var ends: [Int] { endStorage }

    // The storage, usable from inlinable code: a producer in another module (the SDK's
    // engine, several records per input) then appends and empties with the arrays' operations
    // specialized in place, not through unspecialized generic calls into this module.
    @usableFromInline var payloadStorage: [UInt8] = []
    @usableFromInline var kindStorage: [UInt32] = []
    @usableFromInline var endStorage: [Int] = []

    public init() {}

    /// The records of `records`, in order (a copy of each payload).
    public init(_ records: [(kind: UInt32, payload: [UInt8])]) {
        for record in records { append(kind: record.kind, payload: record.payload) }
    }

    /// How many records the batch holds.
    @inlinable public var count: Int { kindStorage.count }

    @inlinable public var isEmpty: Bool { kindStorage.isEmpty }

    /// Appends a record of `kind` whose payload `encode` appends to the buffer it is handed
    /// (which already holds the earlier records' payloads: `encode` must only append).
    public mutating func append(kind: UInt32, encodingPayload encode: (inout [UInt8]) -> Void) {
        let start = payloadStorage.count
        encode(&payloadStorage)
        precondition(payloadStorage.count >= start, "a record's encoder removed bytes of the records before it")
        kindStorage.append(kind)
        endStorage.append(payloadStorage.count)
    }

    /// Appends a record of `kind` with a copy of the bytes `payload` points at: the producer's
    /// hot path (an encoder's scratch buffer), with no closure and nothing generic between the
    /// bytes and the batch.
    @inlinable
    public mutating func append(kind: UInt32, payloadBytes payload: UnsafeBufferPointer<UInt8>) {
        payloadStorage.append(contentsOf: payload)
        kindStorage.append(kind)
        endStorage.append(payloadStorage.count)
    }

    /// Appends a record of `kind` with a copy of `payload`.
    public mutating func append(kind: UInt32, payload: some Collection<UInt8>) {
        append(kind: kind) { $0.append(contentsOf: payload) }
    }

    /// Record `index`'s payload, as a range of ``payloads``.
    public func payloadRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : endStorage[index - 1])..<endStorage[index]
    }

    /// Empties the batch, keeping its storage for the next one.
    @inlinable
    public mutating func removeAll() {
        payloadStorage.removeAll(keepingCapacity: true)
        kindStorage.removeAll(keepingCapacity: true)
        endStorage.removeAll(keepingCapacity: true)
    }
}
