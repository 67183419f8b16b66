import Journal
import SDK

/// One record of an SDK journal with its payload interpreted.
struct DecodedRecord {
    /// What the record holds.
    enum Content {
        /// The first record of a segment: the state as of every record before it.
        case snapshot(SDKState)
        /// A fact (an unknown kind from a newer SDK decodes as ``Fact/unknown(kind:payload:)``).
        case fact(Fact)
        /// A record that could not be interpreted, and why; it is skipped, never folded.
        case unreadable(String)
    }

    var sequence: UInt64
    var time: JournalTime
    var kind: UInt32
    var payloadBytes: Int
    var content: Content

    /// The fact the record holds, if it holds one.
    var fact: Fact? {
        if case .fact(let fact) = content { fact } else { nil }
    }

    var isSnapshot: Bool { kind == SegmentFormat.snapshotKind }

    /// The record's kind by name: a fact kind's name, `snapshot`, or `kind N`.
    var kindName: String {
        if isSnapshot { return "snapshot" }
        return FactKind(rawValue: kind)?.name ?? "kind \(kind)"
    }
}
