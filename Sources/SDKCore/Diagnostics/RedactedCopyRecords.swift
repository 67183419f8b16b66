import Journal

/// The records a redacted copy of a journal writes (`replay export --redact --format journal`,
/// `exportDiagnostics`), each within the copy's record limit.
///
/// Redaction can make a record larger (a token takes more bytes than a one-byte value), so a
/// record near the limit may come out over it. Such a record is written in summary instead
/// (``Redactor/summarizing``: each personal or free-text value one token, so each takes at most a
/// token's bytes), followed by a `journalGap` fact saying so; a fact over the limit even in
/// summary is left out, and a snapshot becomes the empty state, the gap saying that too. A
/// snapshot the copy's fold disagrees with is explained by the gap after it (`replay check`
/// reads it so).
package struct RedactedCopyRecords {
    /// One record of the copy.
    package struct Record: Equatable {
        package var kind: UInt32
        package var payload: [UInt8]
    }

    package let redactor: Redactor
    /// The largest record the copy's writer takes (its `maxRecordBytes`).
    package let recordLimit: Int
    /// How many records were written in summary, and how many facts were left out.
    package private(set) var summarized = 0
    package private(set) var leftOut = 0

    package init(redactor: Redactor, recordLimit: Int) {
        self.redactor = redactor
        self.recordLimit = recordLimit
    }

    /// The records for `fact`, recorded at `time`: the redacted fact, or (over the limit) the
    /// fact in summary and the gap that says so, or only the gap. A pair, not an array: no
    /// allocation for the one record nearly every fact gives.
    ///
    /// `state` is the original's state before the fact. An event joining a bulk on the gate's
    /// decision carries no body in the original (format 1.3: the fold builds it from the input's
    /// call); the copy carries its body, redacted, since a body built from the redacted call is
    /// not the redacted body (event names and times are kept in a call, tokens in a body), and
    /// the copy's fold must come to the redacted snapshots' bodies (`replay check`'s
    /// `snapshot-agrees` on the copy).
    package mutating func records(for fact: Fact, at time: JournalTime, before state: SDKState?) -> (Record, Record?) {
        var fact = fact
        if case .eventBatched(let task, let event, let executedOn?) = fact, event.body.isEmpty, let state {
            let body = state.receivedTrackBody(of: event.call, at: time)
            if !body.isEmpty { fact = .eventBatched(task: task, event: BatchedEvent(call: event.call, body: body), executedOn: executedOn) }
        }
        let redacted = redactor.redact(fact)
        let payload = FactCodec.payload(of: redacted)
        let kind = FactCodec.kind(of: redacted)
        guard !fits(payload) else { return (Record(kind: kind, payload: payload), nil) }
        let name = FactKind(rawValue: kind)?.name ?? "kind \(kind)"
        let summary = FactCodec.payload(of: redactor.summarizing.redact(fact))
        if fits(summary) {
            summarized += 1
            return (Record(kind: kind, payload: summary),
                    gap(lost: 0, at: time, "the redacted \(name) record took \(DigitGrouping.grouped(payload.count)) bytes, over the copy's record limit of \(DigitGrouping.grouped(recordLimit)): it is written in summary, each personal or free-text value one token"))
        }
        leftOut += 1
        return (gap(lost: 1, at: time, "the redacted \(name) record took \(DigitGrouping.grouped(summary.count)) bytes in summary, over the copy's record limit of \(DigitGrouping.grouped(recordLimit)): it is left out"), nil)
    }

    /// The snapshot of `state`, redacted, recorded at `time`, and the gap to write after it when
    /// it is written in summary or as the empty state.
    package mutating func snapshot(of state: SDKState, at time: JournalTime) -> (payload: [UInt8], gap: Record?) {
        let payload = StateCodec.encode(redactor.redact(state))
        guard !fits(payload) else { return (payload, nil) }
        summarized += 1
        let over = "the redacted snapshot took \(DigitGrouping.grouped(payload.count)) bytes, over the copy's record limit of \(DigitGrouping.grouped(recordLimit))"
        let summary = StateCodec.encode(redactor.summarizing.redact(state))
        if fits(summary) {
            return (summary, gap(lost: 0, at: time, over + ": it is written in summary, each personal or free-text value one token"))
        }
        return (StateCodec.encode(SDKState()), gap(lost: 0, at: time, over + ", in summary too: the empty state stands in for it"))
    }

    /// Whether a record of `payload` fits the limit whatever its kind and time delta take.
    private func fits(_ payload: [UInt8]) -> Bool {
        payload.count + Self.recordOverhead <= recordLimit
    }

    /// The most a record takes besides its payload: its kind's and its time delta's varints.
    static let recordOverhead = 2 * 10

    private func gap(lost: UInt64, at time: JournalTime, _ reason: String) -> Record {
        let fact = Fact.journalGap(JournalGap(lostFacts: lost, from: time, to: time, reason: reason))
        return Record(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: fact))
    }
}
