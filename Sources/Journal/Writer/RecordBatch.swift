/// The records of one atomic append (a ``JournalWriter`` batch), their payloads back to back
/// in one buffer.
///
/// A producer that appends several small records per step fills one batch, appends it and
/// empties it with ``removeAll()``, which keeps its storage: no array per record, and no
/// allocation at all once the buffers have grown to the producer's usual step.
public struct RecordBatch: Sendable {
    /// The payloads, back to back, in record order.
    public private(set) var payloads: [UInt8] = []
    /// Each record's kind, in order.
    public private(set) var kinds: [UInt32] = []
    /// Where each record's payload ends in ``payloads``, in order.
    public private(set) var ends: [Int] = []

    public init() {}

    /// The records of `records`, in order (a copy of each payload).
    public init(_ records: [(kind: UInt32, payload: [UInt8])]) {
        for record in records { append(kind: record.kind, payload: record.payload) }
    }

    /// How many records the batch holds.
    public var count: Int { kinds.count }

    public var isEmpty: Bool { kinds.isEmpty }

    /// Appends a record of `kind` whose payload `encode` appends to the buffer it is handed
    /// (which already holds the earlier records' payloads: `encode` must only append).
    public mutating func append(kind: UInt32, encodingPayload encode: (inout [UInt8]) -> Void) {
        let start = payloads.count
        encode(&payloads)
        precondition(payloads.count >= start, "a record's encoder removed bytes of the records before it")
        kinds.append(kind)
        ends.append(payloads.count)
    }

    /// Appends a record of `kind` with a copy of the bytes `payload` points at: the producer's
    /// hot path (an encoder's scratch buffer), with no closure and nothing generic between the
    /// bytes and the batch.
    public mutating func append(kind: UInt32, payloadBytes payload: UnsafeBufferPointer<UInt8>) {
        payloads.append(contentsOf: payload)
        kinds.append(kind)
        ends.append(payloads.count)
    }

    /// Appends a record of `kind` with a copy of `payload`.
    public mutating func append(kind: UInt32, payload: some Collection<UInt8>) {
        append(kind: kind) { $0.append(contentsOf: payload) }
    }

    /// Record `index`'s payload, as a range of ``payloads``.
    public func payloadRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Empties the batch, keeping its storage for the next one.
    public mutating func removeAll() {
        payloads.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}
