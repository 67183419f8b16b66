import Journal

/// A fact with its record's payload (as ``FactCodec/payload(of:)`` writes it), encoded where
/// that is cheap: the SDK encodes a public call's `callReceived` on the calling thread, so the
/// engine thread, which every call goes through, appends the bytes instead of encoding the call
/// (its data fields most of it).
///
/// Encoding is a pure function of the fact, so where it runs changes no byte of the journal.
package struct EncodedFact: Sendable {
    /// The fact.
    package let fact: Fact
    /// Its record's payload.
    package let payload: [UInt8]

    /// Encodes `fact` here, on the calling thread.
    package init(_ fact: Fact) {
        payload = FactCodec.payload(of: fact)
        self.fact = fact
    }
}

extension FactCodec {
    /// Appends `fact` to `batch` as one record whose payload was encoded beforehand
    /// (``EncodedFact``): the same bytes as ``append(_:to:)``.
    package static func append(_ fact: Fact, encodedAs payload: [UInt8], to batch: inout RecordBatch) {
        assert(payload == Self.payload(of: fact), "an encoded payload that is not the fact's")
        // Appended here, not through the batch's generic `append(kind:payload:)`, which this
        // module cannot specialise (a generic copy costs about a thousand instructions a record).
        batch.append(kind: kind(of: fact)) { $0.append(contentsOf: payload) }
    }
}
