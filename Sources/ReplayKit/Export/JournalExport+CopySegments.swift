import Foundation
import Journal
import SDK

extension JournalExport {
    /// A record of a redacted copy as a worker makes it from a segment alone: redacted and
    /// encoded, waiting for the copy's writer, which numbers records and lays out segments in
    /// journal order.
    private enum CopyItem: Sendable {
        /// A snapshot (or, for a snapshot this build cannot read, the state before it), redacted,
        /// and the gap to write after it, if any.
        case snapshot(payload: [UInt8], gap: (kind: UInt32, payload: [UInt8])?, sequence: UInt64, time: JournalTime)
        /// A fact, redacted, and the gap after it, if any.
        case fact(kind: UInt32, payload: [UInt8], gap: (kind: UInt32, payload: [UInt8])?, sequence: UInt64, time: JournalTime)
        /// A record this build cannot read, kept as an empty one of its kind.
        case emptied(kind: UInt32, sequence: UInt64, time: JournalTime)
    }

    /// One segment's copy as the join receives it.
    private enum CopyPart: Sendable {
        /// The segment's records made alone, from its snapshot; the records written in summary
        /// and left out; the state it ended with; the error that stopped it, if one did.
        case made(items: [CopyItem], summarized: Int, leftOut: Int, end: SDKState, failure: HandedOverError?)
        /// The segment does not begin with a readable snapshot.
        case unsplit
    }

    /// ``exportJournal(_:_:to:console:)`` with `reader`'s segments redacted and encoded side by
    /// side on `jobs` threads, each from its snapshot, and written into the copy in order on the
    /// calling thread: the same records, numbered and laid out in the same segments, as the walk
    /// in order writes (what a record of the copy holds depends on the record and the state
    /// before it alone; where it goes, on the writer, which stays in order). A segment without a
    /// readable snapshot is copied in order at the join; a journal that cannot be split, or
    /// `jobs` 1, is walked in order. Memory: the 2J segments' redacted records in flight.
    package func exportJournal(_ reader: JournalReader, _ redactor: Redactor, to output: String, console: Console,
                               jobs: Int) throws -> (ExportSummary, SegmentFolds.Walked) {
        guard jobs > 1, SegmentFolds.canSplit(reader) else {
            let walked = SegmentFolds.Walked.inOrder(segments: reader.segments.count)
            return (try exportJournal(reader, redactor, to: output, console: console), walked)
        }
        var walked = SegmentFolds.Walked()
        let (writer, options) = try openCopy(of: reader, at: output)
        var summary = ExportSummary()
        var copy = RedactedCopyRecords(redactor: redactor, recordLimit: options.maxRecordBytes)
        var (summarized, leftOut) = (0, 0)
        var state = SDKState()
        try SegmentFolds.run(segments: reader.segments.count, jobs: jobs, fold: { index in
            Self.copyAlone(reader, segment: index, RedactedCopyRecords(redactor: redactor, recordLimit: options.maxRecordBytes))
        }, join: { index, part in
            guard case .made(let items, let partSummarized, let partLeftOut, let end, let failure) = part else {
                walked.segmentsInOrder += 1
                guard let walk = try JournalWalk(reader: reader, segment: index, after: state) else { return }
                defer { state = walk.state }
                while let record = try walk.next() {
                    try copyRecord(record, before: walk.state, &copy, writer, &summary, console: console)
                    walk.fold(record)
                }
                return
            }
            walked.segmentsAlone += 1
            for item in items {
                let sequence: UInt64
                switch item {
                case .snapshot(let payload, let gap, let at, let time):
                    sequence = at
                    noteFirst(sequence, &summary)
                    try writeSnapshot((payload, gap), at: time, writer, &summary)
                case .fact(let kind, let payload, let gap, let at, let time):
                    sequence = at
                    noteFirst(sequence, &summary)
                    try writeFact((kind, payload), gap: gap, at: time, writer, &summary)
                case .emptied(let kind, let at, let time):
                    sequence = at
                    noteFirst(sequence, &summary)
                    try writeEmptied(kind: kind, at: time, writer, &summary)
                }
                if summary.records % 4096 == 0 { console.progress("exported seq \(sequence)") }
            }
            summarized += partSummarized
            leftOut += partLeftOut
            state = end
            if let failure { throw failure.error }
        })
        try writer.close()
        summary.summarized = copy.summarized + summarized
        summary.leftOut = copy.leftOut + leftOut
        return (summary, walked)
    }

    /// Redacts and encodes segment `index` alone, from its snapshot, on a worker thread.
    private static func copyAlone(_ reader: JournalReader, segment index: Int, _ copy: RedactedCopyRecords) -> CopyPart {
        guard let walk = JournalWalk.alone(reader, segment: index) else { return .unsplit }
        var copy = copy
        var items: [CopyItem] = []
        func part(_ failure: HandedOverError?) -> CopyPart {
            .made(items: items, summarized: copy.summarized, leftOut: copy.leftOut, end: walk.state, failure: failure)
        }
        do {
            while let record = try walk.next() {
                let (sequence, time) = (record.sequence, record.time)
                switch record.content {
                case .snapshot(let snapshot):
                    let (payload, gap) = copy.snapshot(of: snapshot, at: time)
                    items.append(.snapshot(payload: payload, gap: gap.map { ($0.kind, $0.payload) }, sequence: sequence, time: time))
                case .fact(let fact):
                    let (redacted, gap) = walk.withState { copy.records(for: fact, at: time, before: $0) }
                    items.append(.fact(kind: redacted.kind, payload: redacted.payload, gap: gap.map { ($0.kind, $0.payload) },
                                       sequence: sequence, time: time))
                case .unreadable where record.isSnapshot:
                    let (payload, gap) = walk.withState { copy.snapshot(of: $0, at: time) }
                    items.append(.snapshot(payload: payload, gap: gap.map { ($0.kind, $0.payload) }, sequence: sequence, time: time))
                case .unreadable:
                    items.append(.emptied(kind: record.kind, sequence: sequence, time: time))
                }
                walk.fold(record)
            }
        } catch {
            return part(HandedOverError(error: error))
        }
        return part(nil)
    }
}
