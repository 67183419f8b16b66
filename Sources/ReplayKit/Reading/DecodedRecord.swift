import Journal
import SDK

/// One record of an SDK journal with its payload interpreted.
package struct DecodedRecord: Sendable {
    /// What the record holds.
    package enum Content: Sendable {
        /// The first record of a segment: the state as of every record before it.
        indirect case snapshot(SDKState)
        /// A fact (an unknown kind from a newer SDK decodes as ``Fact/unknown(kind:payload:)``).
        indirect case fact(Fact)
        /// A record that could not be interpreted, and why; it is skipped, never folded.
        case unreadable(String)
    }

    package var sequence: UInt64
    package var time: JournalTime
    package var kind: UInt32
    package var payloadBytes: Int
    package var content: Content

    /// The fact the record holds, if it holds one.
    package var fact: Fact? {
        if case .fact(let fact) = content { fact } else { nil }
    }

    package var isSnapshot: Bool { kind == SegmentFormat.snapshotKind }

    /// The record as `redactor` lets it be seen: its fact or snapshot redacted.
    func redacted(by redactor: Redactor) -> DecodedRecord {
        var record = self
        switch content {
        case .fact(let fact): record.content = .fact(redactor.redact(fact))
        case .snapshot(let state): record.content = .snapshot(redactor.redact(state))
        case .unreadable: break
        }
        return record
    }

    /// The record's kind by name: a fact kind's name, `snapshot`, or `kind N`.
    package var kindName: String {
        if isSnapshot { return "snapshot" }
        return FactKind(rawValue: kind)?.name ?? "kind \(kind)"
    }
}
