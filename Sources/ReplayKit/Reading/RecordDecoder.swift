import Journal
import SDK

/// Interprets record payloads: snapshots with ``StateCodec``, facts with ``FactCodec``, and
/// refuses what would be unsafe to fold (see ``NestingProbe`` and ``OverflowGuard``).
///
/// Never traps on any bytes: whatever cannot be interpreted becomes
/// ``DecodedRecord/Content/unreadable(_:)`` with the reason.
enum RecordDecoder {
    /// The deepest nesting of tagged-field messages a payload may have. Legitimate facts nest
    /// a few levels plus data fields (which the SDK limits to 32); the codecs decode nested
    /// messages recursively, so a deeper payload could exhaust the stack.
    static let maximumNesting = 96

    static func decode(_ view: RecordView, decoding: RecordDecoding = .whole) -> DecodedRecord {
        decode(sequence: view.sequence, time: view.timestamp, kind: view.kind, payload: view.payload, decoding: decoding)
    }

    static func decode(sequence: UInt64, time: JournalTime, kind: UInt32, payload: UnsafeRawBufferPointer,
                       decoding: RecordDecoding = .whole) -> DecodedRecord {
        DecodedRecord(sequence: sequence, time: time, kind: kind, payloadBytes: payload.count,
                      content: content(kind: kind, time: time, payload: payload, decoding: decoding))
    }

    private static func content(kind: UInt32, time: JournalTime, payload: UnsafeRawBufferPointer,
                                decoding: RecordDecoding) -> DecodedRecord.Content {
        if let problem = OverflowGuard.problem(with: time) { return .unreadable(problem) }
        if kind == SegmentFormat.snapshotKind {
            guard decoding.snapshots else { return .unreadable("snapshot not decoded") }
            guard !NestingProbe.exceeds(payload, limit: maximumNesting) else {
                return .unreadable("snapshot nests deeper than \(maximumNesting) levels")
            }
            do {
                let state = try StateCodec.decode(payload)
                if let problem = OverflowGuard.problem(with: state) { return .unreadable("snapshot: \(problem)") }
                return .snapshot(state)
            } catch {
                return .unreadable("snapshot: \(error)")
            }
        }
        // Only data values nest without a bound of their declarations': a fact read without
        // them (``RecordDecoding/dataValues``) nests no deeper than its declaration, and the
        // reader refuses anything past ``FieldReader``'s own bound.
        if decoding.dataValues, FactKind(rawValue: kind) != nil,
           NestingProbe.exceeds(payload, limit: maximumNesting) {
            return .unreadable("payload nests deeper than \(maximumNesting) levels")
        }
        do {
            let fact = try FactCodec.decode(kind: kind, payload: payload, readsDataValues: decoding.dataValues)
            if let problem = OverflowGuard.problem(with: fact) { return .unreadable(problem) }
            return .fact(fact)
        } catch {
            return .unreadable("\(error)")
        }
    }
}
