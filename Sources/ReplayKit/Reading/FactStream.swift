import Journal
import SDK

/// Streams a journal's records, decoded, in sequence order. They are read and decoded ahead on
/// a thread of their own (``ReadAheadDecoder``): at most a few thousand records in memory.
///
/// Strict by default: corruption throws ``JournalError/corrupted(_:)`` (commands report it and
/// exit 1). A reader opened with ``JournalReader/ReadMode/skipToNextSegment`` goes on instead at
/// the next segment, whose first record is a snapshot the fold starts again from; what it
/// skipped is in ``problems``. A torn tail ends the stream normally and is kept in ``tornTail``. Records that cannot be
/// interpreted are returned as ``DecodedRecord/Content/unreadable(_:)`` and counted.
package final class FactStream {
    private let records: ReadAheadDecoder
    private let decoding: RecordDecoding
    /// What the stream skipped so far (the torn tail once it has ended).
    private var skipped = StreamProblems()
    /// The first unreadable records (sequence and reason), at most ``unreadableSampleLimit``.
    var unreadableSample: [(sequence: UInt64, reason: String)] { skipped.unreadableSample }
    /// How many unreadable records were returned so far.
    var unreadableCount: Int { skipped.unreadableCount }
    static let unreadableSampleLimit = StreamProblems.sampleLimit

    /// A stream of `reader`'s records from `sequence` (from its start when nil). With
    /// `readsAhead` false they are read and decoded on the calling thread, no thread started.
    package init(reader: JournalReader, from sequence: UInt64? = nil, decoding: RecordDecoding = .whole,
                 readsAhead: Bool = true) throws {
        records = ReadAheadDecoder(reader: reader, from: sequence, decoding: decoding, readsAhead: readsAhead)
        self.decoding = decoding
    }

    /// The torn tail that ended the stream, if it ended on one.
    var tornTail: Damage? { records.tornTail }

    /// The skip the record last handed out is the first after (a reader that goes on past
    /// damage); nil for every other record.
    package var lastSkip: SkippedRange? {
        records.lastFollowsSkip ? records.skipped.last : nil
    }

    /// Whether the record last handed out is the first after a skip (``lastSkip`` is not nil).
    var lastFollowsSkip: Bool { records.lastFollowsSkip }

    /// The next record; nil at the end of the journal.
    package func next() throws -> DecodedRecord? {
        guard let record = try records.next() else { return nil }
        if case .unreadable(let reason) = record.content, !(record.isSnapshot && !decoding.snapshots) {
            skipped.noteUnreadable(record.sequence, reason)
        }
        return record
    }

    /// What the stream skipped so far, and the torn tail that ended it, if it has.
    package var problems: StreamProblems {
        var problems = skipped
        problems.tornTail = tornTail
        problems.skippedDamage = records.skipped
        return problems
    }

    /// Prints what the stream skipped or where it stopped, on standard error; returns whether
    /// there was anything worth exit status 1 (unreadable records).
    @discardableResult
    package func reportProblems(command: String, console: Console) -> Bool {
        problems.report(command: command, console: console)
    }
}
