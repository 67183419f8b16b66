/// A record bundle: the records of one atomic append (``JournalWriter``'s `appendBundle(_:timestamp:)`),
/// their payloads back to back in one buffer. A bundle never spans two commit groups (a commit
/// group is the appends synced together).
///
/// A producer that appends several small records per step fills one bundle, appends it and
/// empties it with ``removeAll()``, which keeps its storage: no array per record, and no
/// allocation at all once the buffers have grown to the producer's usual step.
public struct RecordBundle: Sendable {
    /// The payloads, back to back, in record order.
    public var payloads: ArraySlice<UInt8> { payloadStorage[..<payloadCount] }
    /// Each record's kind, in order.
    public var kinds: ArraySlice<UInt32> { kindStorage[..<recordCount] }
    /// Where each record's payload ends in ``payloads``, in order.
    public var ends: ArraySlice<Int> { endStorage[..<recordCount] }

    // The storage, usable from inlinable code: a producer in another module (the SDK's
    // engine, several records per input) then appends and empties with the arrays' operations
    // specialized in place, not through unspecialized generic calls into this module. The
    // arrays keep their length once grown, and only their first `payloadCount` bytes and
    // `recordCount` records are the bundle's: emptying the bundle, on every step, is setting two
    // counts, not emptying three arrays (which costs far more, even keeping their capacity).
    @usableFromInline var payloadStorage: [UInt8] = []
    @usableFromInline var payloadCount = 0
    @usableFromInline var kindStorage: [UInt32] = []
    @usableFromInline var endStorage: [Int] = []
    @usableFromInline var recordCount = 0

    public init() {}

    /// The records of `records`, in order (a copy of each payload).
    public init(_ records: [(kind: UInt32, payload: [UInt8])]) {
        for record in records { append(kind: record.kind, payload: record.payload) }
    }

    /// How many records the bundle holds.
    @inlinable public var count: Int { recordCount }

    @inlinable public var isEmpty: Bool { recordCount == 0 }

    /// Appends a record of `kind` whose payload `encode` appends to the buffer it is handed
    /// (which already holds the earlier records' payloads: `encode` must only append).
    public mutating func append(kind: UInt32, encodingPayload encode: (inout [UInt8]) -> Void) {
        payloadStorage.removeSubrange(payloadCount...)
        encode(&payloadStorage)
        precondition(payloadStorage.count >= payloadCount, "a record's encoder removed bytes of the records before it")
        payloadCount = payloadStorage.count
        appendRecord(kind: kind)
    }

    /// Appends a record of `kind` with a copy of the bytes `payload` points at: the producer's
    /// hot path (an encoder's scratch buffer), with no closure and nothing generic between the
    /// bytes and the bundle.
    @inlinable
    public mutating func append(kind: UInt32, payloadBytes payload: UnsafeBufferPointer<UInt8>) {
        let end = payloadCount + payload.count
        if end > payloadStorage.count {
            payloadStorage.append(contentsOf: repeatElement(0, count: Swift.max(end - payloadStorage.count, payloadStorage.count)))
        }
        if let source = payload.baseAddress, payload.count > 0 {
            let start = payloadCount
            payloadStorage.withUnsafeMutableBufferPointer { storage in
                (storage.baseAddress! + start).update(from: source, count: payload.count)
            }
        }
        payloadCount = end
        appendRecord(kind: kind)
    }

    /// Appends a record of `kind` with a copy of `payload`.
    public mutating func append(kind: UInt32, payload: some Collection<UInt8>) {
        append(kind: kind) { $0.append(contentsOf: payload) }
    }

    /// Counts a record of `kind` whose payload ends at ``payloadCount``.
    @inlinable
    mutating func appendRecord(kind: UInt32) {
        if recordCount < kindStorage.count {
            kindStorage[recordCount] = kind
            endStorage[recordCount] = payloadCount
        } else {
            kindStorage.append(kind)
            endStorage.append(payloadCount)
        }
        recordCount += 1
    }

    /// Record `index`'s payload, as a range of ``payloads``.
    public func payloadRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : endStorage[index - 1])..<endStorage[index]
    }

    /// Empties the bundle, keeping its storage for the next one.
    @inlinable
    public mutating func removeAll() {
        payloadCount = 0
        recordCount = 0
    }
}
