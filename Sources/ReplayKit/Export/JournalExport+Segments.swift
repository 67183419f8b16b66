import Foundation
import Journal
import SDK

extension JournalExport {
    /// One segment's rows as the join receives them.
    private enum SegmentPart: Sendable {
        /// The segment written alone from its snapshot: the snapshot (`first`), whose row's
        /// start needs the state the segments before ended with and the labels they learned, so
        /// is written at the join, with the rest of its row (its redacted members) written here;
        /// the other rows (``SegmentRows``); the labels they learned; the counts; the stream's
        /// end state and last sequence; and the error that stopped the segment, if one did.
        /// `start` is segment 0's own snapshot, the state before its first record.
        case written(first: DecodedRecord?, firstMembers: [UInt8], start: SDKState?, rows: SegmentRows,
                     learned: [ProjectFingerprint: String], emptied: Int, end: SDKState, last: UInt64?, failure: HandedOverError?)
        /// The segment does not begin with a readable snapshot.
        case unsplit
    }

    /// ``exportNDJSON(_:_:into:console:progressPrefix:)`` with `reader`'s segments written side
    /// by side on `jobs` threads, each from the snapshot that begins it, and their rows joined in
    /// order on the calling thread into the same bytes as one walk in order writes.
    ///
    /// What crosses a segment boundary, and how the join restores it: the state before the
    /// segment's snapshot (its row's `live_project`; written at the join, with the state the
    /// segment before ended with) and the project labels learned by the rows before (a row says
    /// `null` for a label its segment did not learn, and the join puts in the label the segments
    /// before learned, if any: ``SegmentRows/Hole``). Everything else of a row (`seq`, `time`,
    /// the state before it, the fact's members, redacted by tokens that depend on the value
    /// alone) is the segment's own. A segment that does not begin with a readable snapshot is
    /// written here, in order, from the state the one before ended with; a journal that cannot
    /// be split (``SegmentFolds/canSplit(_:)``), or `jobs` 1, is walked in order as before.
    /// Memory: at most ``SegmentFolds`` window's segments' rows at once.
    ///
    /// Returns the summary and whether the journal was split (segments written alone, and
    /// segments written in order).
    package func exportNDJSON(_ reader: JournalReader, _ redactor: Redactor, into file: NDJSONFile, console: Console,
                              progressPrefix: String = "", jobs: Int) throws -> (ExportSummary, SegmentFolds.Walked) {
        guard jobs > 1, SegmentFolds.canSplit(reader) else {
            let walked = SegmentFolds.Walked.inOrder(segments: reader.segments.count)
            return (try exportNDJSON(reader, redactor, into: file, console: console, progressPrefix: progressPrefix), walked)
        }
        var walked = SegmentFolds.Walked()
        var summary = ExportSummary()
        var columns = FleetColumns(reader: reader)
        var state = SDKState()
        try SegmentFolds.run(segments: reader.segments.count, jobs: jobs, fold: { index in
            Self.writeAlone(reader, segment: index, redactor)
        }, join: { index, part in
            guard case .written(let first, let firstMembers, let start, let rows, let learned, let emptied, let end, let last,
                                let failure) = part else {
                walked.segmentsInOrder += 1
                guard let walk = try JournalWalk(reader: reader, segment: index, after: state) else { return }
                defer { state = walk.state }
                while let record = try walk.next() {
                    try walk.withState { before in
                        try Self.writeRow(record, before: before, columns: &columns, redactor, into: file, &summary)
                    }
                    walk.fold(record)
                }
                if let position = walk.position { console.progress(progressPrefix + "exported seq \(position.sequence)") }
                return
            }
            walked.segmentsAlone += 1
            if let first {
                try file.writeLine { line in
                    JournalExport.writeRowStart(first, time: first.time.description, columns: &columns, before: start ?? state, to: &line)
                    line.append(firstMembers)
                }
                summary.records += 1
            }
            try rows.forEachRun(label: columns.label(of:)) { try file.write($0) }
            columns.learn(learned)
            summary.records += rows.lines
            summary.emptied += emptied
            state = end
            if let last { console.progress(progressPrefix + "exported seq \(last)") }
            if let failure { throw failure.error }
        })
        return (summary, walked)
    }

    /// Writes `record`'s whole row, given the state before it.
    private static func writeRow(_ record: DecodedRecord, before state: borrowing SDKState, columns: inout FleetColumns,
                                 _ redactor: Redactor, into file: NDJSONFile, _ summary: inout ExportSummary) throws {
        try file.writeLine { line in
            writeRowStart(record, time: record.time.description, columns: &columns, before: state, to: &line)
            writeRowMembers(record.content, redactedBy: redactor, to: &line)
        }
        if case .unreadable = record.content { summary.emptied += 1 }
        summary.records += 1
    }

    /// Writes the rows of segment `index` alone, from its snapshot, on a worker thread.
    private static func writeAlone(_ reader: JournalReader, segment index: Int, _ redactor: Redactor) -> SegmentPart {
        guard let walk = JournalWalk.alone(reader, segment: index) else { return .unsplit }
        let start = index == 0 ? walk.state : nil
        var columns = FleetColumns(reader: reader, notingUnknownLabels: true)
        var rows = SegmentRows()
        var first: DecodedRecord?
        var firstMembers: [UInt8] = []
        var emptied = 0
        func part(_ failure: HandedOverError?) -> SegmentPart {
            .written(first: first, firstMembers: firstMembers, start: start, rows: rows, learned: columns.learnedLabels,
                     emptied: emptied, end: walk.state, last: walk.position?.sequence, failure: failure)
        }
        do {
            if let record = try walk.next() {
                columns.learnLabels(namedBy: record)
                firstMembers = ScratchBytes.withScratch(capacity: 1 << 12) { members in
                    JournalExport.writeRowMembers(record.content, redactedBy: redactor, to: &members)
                    return members.array
                }
                walk.fold(record)
                first = record
            }
            var times = RecordTimeText()
            while let record = try walk.next() {
                let timeText = times.text(of: record.time)
                let place = rows.writeLine { line in
                    walk.withState { state in
                        JournalExport.writeRowStart(record, time: timeText, columns: &columns, before: state, to: &line)
                    }
                    JournalExport.writeRowMembers(record.content, redactedBy: redactor, to: &line)
                }
                if !columns.unknownLabels.isEmpty { rows.noteUnknownLabels(&columns.unknownLabels, inLineAt: place) }
                if case .unreadable = record.content { emptied += 1 }
                walk.fold(record)
            }
        } catch {
            return part(HandedOverError(error: error))
        }
        return part(nil)
    }
}
