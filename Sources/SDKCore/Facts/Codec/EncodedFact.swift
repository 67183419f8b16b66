import Journal

/// A fact with its record's payload (as ``FactCodec/payload(of:)`` writes it) and what deciding
/// it takes from it alone (``PreparedInput``), made where that is cheap: the SDK makes a public
/// call's `callReceived` so on the calling thread, and the engine thread, which every call goes
/// through, appends the bytes and decides with the preparation instead of computing both.
///
/// Both are pure functions of the fact, so where they are made changes no byte of the journal
/// and no decision.
package struct EncodedFact: Sendable {
    /// The fact.
    package let fact: Fact
    /// Its record's payload.
    package let payload: [UInt8]
    /// Its preparation for `decide`, if it has one.
    package let prepared: PreparedInput?

    /// The fact `callReceived(received)`, encoded and prepared here, on the calling thread
    /// (`received` is moved into the fact, not copied).
    package init(callReceived received: consuming ReceivedCall) {
        prepared = PreparedInput(received)
        let fact = Fact.callReceived(received)
        payload = FactCodec.payload(of: fact)
        self.fact = fact
    }
}

extension FactCodec {
    /// Appends `fact` to `batch` as one record whose payload was encoded beforehand
    /// (``EncodedFact``): the same bytes as ``append(_:to:)``.
    package static func append(_ fact: Fact, encodedAs payload: [UInt8], to batch: inout RecordBatch) {
        assert(payload == Self.payload(of: fact), "an encoded payload that is not the fact's")
        // Through the bytes, not the batch's generic `append(kind:payload:)`, which this module
        // cannot specialise (a generic copy costs about a thousand instructions a record).
        payload.withUnsafeBufferPointer { batch.append(kind: kind(of: fact), payloadBytes: $0) }
    }
}
