import Foundation
import Journal
import SDK

/// What `replay export --redact` was asked for, and the single-journal exports it runs: a
/// redacted copy as NDJSON rows or as a new journal (the trace is ``TraceExporter``'s; many
/// journals at once are ``FleetExport``'s).
package struct JournalExport: Sendable {
    package enum OutputFormat: String, Sendable {
        case journal, ndjson, trace
    }

    package let paths: [String]
    package let format: OutputFormat
    package let output: String
    package let singleFile: Bool
    package let json: Bool
    /// Journals exported side by side when there are several (``FleetExport``).
    package let jobs: Int

    package init(paths: [String], format: OutputFormat, output: String, singleFile: Bool, json: Bool, jobs: Int = 1) {
        self.jobs = jobs
        self.paths = paths
        self.format = format
        self.output = output
        self.singleFile = singleFile
        self.json = json
    }

    /// The single journal of the classic form, `export ... -o OUT <journal>`.
    package var path: String { paths[0] }

    package struct ExportSummary: Sendable {
        package var records = 0
        package var emptied = 0
        package var sequenceOffset: Int64 = 0
        package var droppedSnapshots = 0
        /// Records over the copy's record limit once redacted: written in summary, or (facts
        /// only) left out; a `journalGap` after each says so.
        package var summarized = 0
        package var leftOut = 0
        /// What a reader going on past damage skipped (`--salvage`), in order: the copy carries
        /// each loss as a `journalGap` (``JournalExport/carryLoss(_:resumingWith:at:_:_:_:)``).
        package var lostToDamage: [SkippedRange] = []
        /// Whether the copy's first record was taken (``sequenceOffset`` is its).
        var begun = false

        package init(records: Int = 0, emptied: Int = 0) {
            self.records = records
            self.emptied = emptied
        }
    }

    // MARK: - NDJSON

    /// Streams `reader`'s records, redacted, into `file`: one row per record, with the fleet
    /// columns (``FleetColumns``) after `seq`, `time` and `kind`. The walk runs on a thread of
    /// its own (``ExportWalk``); redacting and writing the rows runs on the calling thread.
    package func exportNDJSON(_ reader: JournalReader, _ redactor: Redactor, into file: NDJSONFile, console: Console,
                      progressPrefix: String = "") throws -> ExportSummary {
        var summary = ExportSummary()
        let walk = ExportWalk(reader: reader)
        while let chunk = try walk.next() {
            // Each row's start is copied from the chunk, where the walk wrote it, into the
            // file's buffer, and its members written after it there; the records are read in
            // place (lent, not copied out of the chunk).
            try chunk.starts.withUnsafeBytes { starts in
                try chunk.rows.withUnsafeBufferPointer { rows in
                    try file.writeLines(count: rows.count, start: { chunk.start(of: $0, in: starts) }, rest: { index, row in
                        if case .unreadable = rows[index].record.content { summary.emptied += 1 }
                        Self.writeRowMembers(rows[index].record.content, redactedBy: redactor, to: &row)
                        summary.records += 1
                        if summary.records % 4096 == 0 { console.progress(progressPrefix + "exported seq \(rows[index].record.sequence)") }
                    })
                }
            }
        }
        return summary
    }

    /// Writes the start of a row, up to its record's own members: `{"seq":…,"time":…,"kind":…`
    /// then the fleet columns, given the record's `time` as text and the state before it. What
    /// the record's members are does not change what its columns say: they come from ids, names
    /// and projects, which redaction keeps (a test holds the columns of every kind of fact to it).
    static func writeRowStart(_ record: DecodedRecord, time: String, columns: inout FleetColumns, before state: SDKState,
                              to output: inout ScratchBytes) {
        output.append("{\"seq\":" as StaticString)
        output.appendDecimal(record.sequence)
        output.append(",\"time\":" as StaticString)
        JSONValue.writeString(time, to: &output)
        output.append(",\"kind\":" as StaticString)
        JSONValue.writeString(record.kindName, to: &output)
        columns.write(for: record, before: state, time: time, to: &output)
    }

    /// Writes the rest of a row: the members of what the record holds (one that shares a fleet
    /// column's name, engineStarted's `sdk_version`, is written as `fact_sdk_version`) and the
    /// closing brace.
    static func writeRowMembers(_ content: DecodedRecord.Content, to output: inout ScratchBytes) {
        var members = JSONMemberBytes(continuing: output, afterMembers: true, renameTopLevel: FleetColumns.rowKey(forFactMember:))
        FactJSON.write(content, into: &members)
        output = members.finish()
        output.append(UInt8(ascii: "}"))
    }

    /// Writes the rest of a row as ``writeRowMembers(_:to:)`` writes the redacted `content`: a
    /// fact's members are written redacted from the fact itself (no redacted fact is built), a
    /// snapshot's from the redacted state; an unreadable record says only
    /// ``ExportWalk/unreadableReason`` (why it was unreadable is this build's business).
    static func writeRowMembers(_ content: borrowing DecodedRecord.Content, redactedBy redactor: Redactor, to output: inout ScratchBytes) {
        switch content {
        case .fact(let fact):
            var members = JSONMemberBytes(continuing: output, afterMembers: true, renameTopLevel: FleetColumns.rowKey(forFactMember:),
                                          redactor: redactor)
            FactJSON.write(fact, into: &members)
            output = members.finish()
            output.append(UInt8(ascii: "}"))
        case .snapshot(let state):
            writeRowMembers(.snapshot(redactor.redact(state)), to: &output)
        case .unreadable:
            writeRowMembers(.unreadable(ExportWalk.unreadableReason), to: &output)
        }
    }

    // MARK: - Journal

    package func exportJournal(_ reader: JournalReader, _ redactor: Redactor, to output: String, console: Console) throws -> ExportSummary {
        let (writer, options) = try openCopy(of: reader, at: output)
        var summary = ExportSummary()
        var copy = RedactedCopyRecords(redactor: redactor, recordLimit: options.maxRecordBytes)
        let walk = try JournalWalk(reader: reader)
        var lastTime: JournalTime?
        while let record = try walk.next() {
            if let skip = walk.resumedAfter {
                summary.lostToDamage.append(skip)
                if summary.begun, let since = lastTime, case .snapshot(let snapshot) = record.content {
                    try carryLoss(skip, resumingWith: snapshot, at: record.time, since: since, &copy, writer, &summary)
                } else {
                    // The copy begins here (or the original went on without a snapshot): the gap
                    // follows the record, its numbers not in the copy.
                    try copyRecord(record, before: walk.state, &copy, writer, &summary, console: console)
                    try writeLossGap(skip, lost: Self.lostCount(skip), firstLost: nil, from: lastTime ?? record.time, to: record.time,
                                     writer, &summary)
                }
            } else {
                try copyRecord(record, before: walk.state, &copy, writer, &summary, console: console)
            }
            lastTime = record.time
            walk.fold(record)
        }
        // A loss no record came after (the damage ran to the journal's end): said at the end.
        for skip in walk.stream.problems.skippedDamage.dropFirst(summary.lostToDamage.count) {
            summary.lostToDamage.append(skip)
            if let lastTime { try writeLossGap(skip, lost: 0, firstLost: nil, from: lastTime, to: lastTime, writer, &summary) }
        }
        try writer.close()
        summary.summarized = copy.summarized
        summary.leftOut = copy.leftOut
        return summary
    }

    /// The writer of a new redacted copy at `output` (which must not exist, or be an empty
    /// directory) and its options.
    func openCopy(of reader: JournalReader, at output: String) throws -> (JournalWriter, JournalOptions) {
        let manager = FileManager.default
        if manager.fileExists(atPath: output), !((try? manager.contentsOfDirectory(atPath: output))?.isEmpty ?? false) {
            throw ExportError.exists(output)
        }
        // The original's id, as the NDJSON rows and `exportDiagnostics`'s copy keep it: the calls'
        // wire ids derive from it, so the copy reconciles against the backends' receipt logs.
        let options = RedactedCopyOptions.make(madeBy: RedactedCopyOptions.exportMaker, of: reader.producer,
                                               journalID: reader.journalID)
        return (try JournalWriter(directory: output, options: options, snapshot: nil), options)
    }

    /// Writes the copy of `record` (given the state before it) into `writer`, redacted.
    func copyRecord(_ record: DecodedRecord, before state: SDKState, _ copy: inout RedactedCopyRecords, _ writer: JournalWriter,
                    _ summary: inout ExportSummary, console: Console) throws {
        noteFirst(record.sequence, &summary)
        switch record.content {
        case .snapshot(let snapshot):
            // The snapshot opens a copy segment when the current one is big enough; a fresh
            // journal always opens with it.
            try writeSnapshot(copy.snapshot(of: snapshot, at: record.time), at: record.time, writer, &summary)
        case .fact(let fact):
            try ensureStarted(writer, state, &copy, at: record.time, &summary)
            let (redacted, gap) = copy.records(for: fact, at: record.time, before: state)
            try writeFact((redacted.kind, redacted.payload), gap: gap.map { ($0.kind, $0.payload) }, at: record.time, writer, &summary)
        case .unreadable:
            try ensureStarted(writer, state, &copy, at: record.time, &summary)
            if record.isSnapshot {
                try writeSnapshot(copy.snapshot(of: state, at: record.time), at: record.time, writer, &summary)
            } else {
                try writeEmptied(kind: record.kind, at: record.time, writer, &summary)
            }
        }
        if summary.records % 4096 == 0 { console.progress("exported seq \(record.sequence)") }
    }

    /// Carries a loss to damage into the copy as the SDK carries its own lost records: the
    /// copy's numbers jump by as many as were lost, a new segment begins with the redacted
    /// `snapshot` the original resumed at (read at `time`), and a `journalGap` after it says
    /// what was lost, from `since` (the last record read before the damage) to `time`, so that
    /// every command reading the copy knows its fold begins again there.
    func carryLoss(_ skip: SkippedRange, resumingWith snapshot: SDKState, at time: JournalTime, since: JournalTime,
                   _ copy: inout RedactedCopyRecords, _ writer: JournalWriter, _ summary: inout ExportSummary) throws {
        let lost = Self.lostCount(skip)
        let firstLost = writer.lastSequence + 1
        let (payload, summarizedGap) = copy.snapshot(of: snapshot, at: time)
        try writer.beginSegment(time: time, skippingThrough: writer.lastSequence + lost) { _ in payload }
        summary.records += 1
        if let summarizedGap {
            try writer.append(kind: summarizedGap.kind, timestamp: time, payload: summarizedGap.payload)
            summary.records += 1
        }
        try writeLossGap(skip, lost: lost, firstLost: lost > 0 ? firstLost : nil, from: since, to: time, writer, &summary)
    }

    /// How many records `skip` lost: 0 when that is not known.
    static func lostCount(_ skip: SkippedRange) -> UInt64 {
        guard let first = skip.damage.sequence, let resumed = skip.resumedAtSequence, resumed > first else { return 0 }
        return resumed - first
    }

    /// Writes the `journalGap` that says what `skip` lost: `lost` records (0: not known) from
    /// the copy's sequence `firstLost`. Its words are the reader's, no record's content.
    private func writeLossGap(_ skip: SkippedRange, lost: UInt64, firstLost: UInt64?, from: JournalTime, to: JournalTime,
                              _ writer: JournalWriter, _ summary: inout ExportSummary) throws {
        let original: String = switch (skip.damage.sequence, skip.resumedAtSequence) {
        case let (first?, resumed?) where resumed > first: "its sequences \(first)...\(resumed - 1)"
        case let (first?, nil): "its records from sequence \(first) to its end"
        default: "records"
        }
        let reason = "the original journal was damaged (\(skip.damage.reason), in \(skip.damage.segment) at byte \(skip.damage.offset)): "
            + "\(original) could not be read, and `replay export --salvage` went on at the next segment's snapshot"
        let gap = Fact.journalGap(JournalGap(lostFacts: lost, from: from, to: to, reason: reason, firstLostSequence: firstLost))
        try writer.append(kind: FactCodec.kind(of: gap), timestamp: to, payload: FactCodec.payload(of: gap))
        summary.records += 1
    }

    /// Takes the copy's first record's sequence, when it is the first: the offset of the copy's numbers.
    func noteFirst(_ sequence: UInt64, _ summary: inout ExportSummary) {
        guard !summary.begun else { return }
        summary.begun = true
        summary.sequenceOffset = Int64(sequence) - 1
    }

    /// Writes a redacted fact and the gap after it, if any.
    func writeFact(_ record: (kind: UInt32, payload: [UInt8]), gap: (kind: UInt32, payload: [UInt8])?, at time: JournalTime,
                   _ writer: JournalWriter, _ summary: inout ExportSummary) throws {
        try writer.append(kind: record.kind, timestamp: time, payload: record.payload)
        summary.records += 1
        if let gap {
            try writer.append(kind: gap.kind, timestamp: time, payload: gap.payload)
            summary.records += 1
        }
    }

    /// Writes a record this build cannot read as an empty one of its kind.
    func writeEmptied(kind: UInt32, at time: JournalTime, _ writer: JournalWriter, _ summary: inout ExportSummary) throws {
        try writer.append(kind: kind, timestamp: time, payload: [UInt8]())
        summary.records += 1
        summary.emptied += 1
    }

    /// Writes a redacted snapshot (``RedactedCopyRecords/snapshot(of:at:)``) when it opens a
    /// segment of the copy (and the gap after it when it is in summary); counts it dropped
    /// otherwise. Returns whether it was written.
    @discardableResult
    func writeSnapshot(_ redacted: (payload: [UInt8], gap: RedactedCopyRecords.Record?), at time: JournalTime, _ writer: JournalWriter,
                       _ summary: inout ExportSummary) throws -> Bool {
        try writeSnapshot((redacted.payload, redacted.gap.map { ($0.kind, $0.payload) }), at: time, writer, &summary)
    }

    /// ``writeSnapshot(_:at:_:_:)-(RedactedCopyRecords.Record?)`` with the gap as its kind and payload.
    @discardableResult
    func writeSnapshot(_ redacted: (payload: [UInt8], gap: (kind: UInt32, payload: [UInt8])?), at time: JournalTime,
                       _ writer: JournalWriter, _ summary: inout ExportSummary) throws -> Bool {
        let (snapshot, gap) = redacted
        guard try writer.rotateIfNeeded(time: time, snapshot: { _ in snapshot }) else {
            summary.droppedSnapshots += 1
            return false
        }
        summary.records += 1
        if let gap {
            try writer.append(kind: gap.kind, timestamp: time, payload: gap.payload)
            summary.records += 1
        }
        return true
    }

    /// A copy must open with a snapshot: when the original's first record is not one, the
    /// state the walk starts from stands in.
    private func ensureStarted(_ writer: JournalWriter, _ state: SDKState, _ copy: inout RedactedCopyRecords, at time: JournalTime,
                               _ summary: inout ExportSummary) throws {
        guard writer.lastSequence == 0 else { return }
        let records = summary.records
        if try writeSnapshot(copy.snapshot(of: state, at: time), at: time, writer, &summary) {
            summary.sequenceOffset -= Int64(summary.records - records)
        } else {
            summary.droppedSnapshots -= 1
        }
    }
}
