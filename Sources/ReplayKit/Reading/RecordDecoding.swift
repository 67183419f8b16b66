import SDK

/// What a reader decodes of each record (``RecordDecoder``): every record whole by default. A
/// reader that reads no snapshot, or no call's data values, leaves them out and saves their
/// work; what it leaves out must then never be encoded again, compared or shown.
package struct RecordDecoding: Sendable, Equatable {
    /// Whether snapshots are decoded; one that is not reads as unreadable, "snapshot not
    /// decoded", and is not counted as a problem.
    package var snapshots = true
    /// Whether the calls' data values are read; when not, each reads as empty, its bytes
    /// neither parsed nor checked (``FactCodec/decode(kind:payload:readsDataValues:)``), nor
    /// is the fact's nesting probed (``NestingProbe``: only data values nest deeper than a
    /// declaration).
    package var dataValues = true

    /// Every record whole.
    package static let whole = RecordDecoding()
    /// Facts only: what shows no state (`cat`, `step`'s search for a switch, the kinds' census).
    package static let withoutSnapshots = RecordDecoding(snapshots: false)
    /// Everything but the calls' data values: `audit`, whose rows name calls, never their data,
    /// and `reconcile`, which matches calls by their ids on the wire.
    package static let withoutDataValues = RecordDecoding(dataValues: false)
}
