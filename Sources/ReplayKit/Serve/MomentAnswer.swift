import Journal
import SDK

/// One moment of a journal as `replay serve` answers it: the record at a sequence number (its
/// fact and timeline line), the state after it, what changed since the moment before, and, for
/// a public call, its audit row; with the neighbouring moments to step to. Computed on demand by
/// the same fold and seek as `replay state --at` (``JournalWalk``).
package enum MomentAnswer {
    /// At most this many records are folded past a call to find how it ended; a call still open
    /// then is shown as pending so far.
    static let auditHorizon = 200_000

    /// The moment `sequence` of the journal `reader` reads, as JSON. `index` holds the journal's
    /// bounds and the calls and switches to step to; `stateText` prints the state a walk has
    /// folded to as `replay state --at` does (the page shows those exact bytes). With
    /// `received` (`replay serve --received`), a public call's moment gains a `received` member:
    /// what the receipt logs say of the call (``ReceivedCalls/json(_:)``).
    package static func json(reader: JournalReader, index: MomentIndex, sequence: UInt64,
                             received: ((CallID) -> JSONValue)? = nil,
                             stateText: (JournalWalk) throws -> String) throws -> JSONValue {
        guard let first = index.first, let last = index.last else { throw MomentError.beforeJournal(.sequence(sequence), first: "an empty journal") }
        guard sequence >= first else { throw MomentError.beforeJournal(.sequence(sequence), first: "sequence \(first)") }
        let walk: JournalWalk
        // The state before the moment; nil when the records before it were lost to damage (the
        // moment begins a segment whose snapshot is read alone).
        let before: JSONValue?
        if sequence > first {
            do {
                walk = try JournalWalk(reader: reader, start: .after(.sequence(sequence - 1)))
                before = StateDocument.make(walk.state)
            } catch JournalError.corrupted where reader.segments.contains(where: { $0.baseSequence == sequence }) {
                walk = try JournalWalk(reader: reader, start: .at(.sequence(sequence)))
                before = nil
            }
        } else {
            walk = try JournalWalk(reader: reader)
            before = StateDocument.make(SDKState())
        }
        var record: DecodedRecord?
        var audit: CallAudit?
        var row: AuditRow?
        var receivedCall: CallID?
        // Up to the moment's record and no further: the record after it may be damaged.
        while record?.sequence != sequence, let next = try walk.peek(), next.sequence <= sequence {
            _ = try walk.next()
            if next.sequence == sequence, case .fact(.callReceived(let received)) = next.content {
                receivedCall = received.id
                let calls = CallAudit { if $0.call == received.id { row = $0 } }
                calls.begin(at: walk.state)
                audit = calls
            }
            walk.fold(next) { audit?.consume(next, before: $0) }
            record = next
        }
        let text = try stateText(walk)
        let after = StateDocument.make(walk.state)
        let diffLines = before.map { DocumentDiff(from: $0, to: after).lines() }
            ?? ["(the state before it is not known: the records before it were lost to damage)"]
        var auditComplete = true
        if let audit {
            // A call's end past damage is not known: the row stays as far as the records read.
            do {
                var folded = 0
                while row == nil, folded < auditHorizon, let next = try walk.next() {
                    walk.fold(next) { audit.consume(next, before: $0) }
                    folded += 1
                }
                if row == nil { auditComplete = try walk.peek() == nil }
            } catch JournalError.corrupted {
                auditComplete = false
            }
            if row == nil { audit.finish() }
        }
        let at = record
        let neighbours: [(String, JSONValue)] = [
            ("prev_fact", .optional(sequence > first ? sequence - 1 : nil) { .unsigned($0) }),
            ("next_fact", .optional(sequence < last ? sequence + 1 : nil) { .unsigned($0) }),
        ] + (try MomentIndex.Stop.allCases.flatMap { stop in
            [("prev_" + stop.rawValue, JSONValue.optional(try index.previous(stop, before: sequence)) { .unsigned($0) }),
             ("next_" + stop.rawValue, JSONValue.optional(try index.next(stop, after: sequence)) { .unsigned($0) })]
        })
        var labels = ProjectLabels()
        labels.learn(from: walk.state)
        var members: [(String, JSONValue)] = [
            ("seq", .optional(at?.sequence) { .unsigned($0) }),
            ("time", .optional(at?.time) { .string($0.description) }),
            ("kind", .optional(at?.kindName, JSONValue.string)),
            ("summary", .optional(at) { .string(FactSummary.text($0, labels: labels)) }),
            ("fact", .optional(at) { $0.isSnapshot ? .null : FactJSON.object($0, labels: labels) }),
            ("state_text", .string(text)),
            ("diff", .array(diffLines.map(JSONValue.string))),
            ("audit", .optional(row) { $0.json }),
            ("audit_complete", .bool(auditComplete)),
            ("first_seq", .unsigned(first)),
            ("last_seq", .unsigned(last)),
            ("steps", .object(neighbours)),
        ]
        if let received, let receivedCall { members.append(("received", received(receivedCall))) }
        return .object(members)
    }
}
