import Journal
import SDK

/// Streams a journal's records, decoded, in sequence order: one record in memory at a time.
///
/// Strict: corruption throws ``JournalError/corrupted(_:)`` (commands report it and exit 1); a
/// torn tail ends the stream normally and is kept in ``tornTail``. Records that cannot be
/// interpreted are returned as ``DecodedRecord/Content/unreadable(_:)`` and counted.
package final class FactStream {
    private let cursor: RecordCursor
    private let decodesSnapshots: Bool
    /// The first unreadable records (sequence and reason), at most ``unreadableSampleLimit``.
    private(set) var unreadableSample: [(sequence: UInt64, reason: String)] = []
    /// How many unreadable records were returned so far.
    private(set) var unreadableCount = 0
    static let unreadableSampleLimit = 20

    package init(reader: JournalReader, from sequence: UInt64? = nil, decodesSnapshots: Bool = true) throws {
        cursor = try reader.records(from: sequence)
        self.decodesSnapshots = decodesSnapshots
    }

    /// The torn tail that ended the stream, if it ended on one.
    var tornTail: Damage? { cursor.tornTail }

    /// The next record; nil at the end of the journal.
    package func next() throws -> DecodedRecord? {
        guard let view = try cursor.nextView() else { return nil }
        let record = RecordDecoder.decode(view, decodingSnapshots: decodesSnapshots)
        if case .unreadable(let reason) = record.content, !(record.isSnapshot && !decodesSnapshots) {
            unreadableCount += 1
            if unreadableSample.count < Self.unreadableSampleLimit { unreadableSample.append((record.sequence, reason)) }
        }
        return record
    }

    /// Prints what the stream skipped or where it stopped, on standard error; returns whether
    /// there was anything worth exit status 1 (unreadable records).
    @discardableResult
    package func reportProblems(command: String, console: Console) -> Bool {
        for (sequence, reason) in unreadableSample {
            console.printError("replay \(command): record \(sequence) skipped: \(reason)")
        }
        if unreadableCount > unreadableSample.count {
            console.printError("replay \(command): \(unreadableCount - unreadableSample.count) more unreadable record(s) skipped")
        }
        if let tornTail {
            console.printError("replay \(command): the journal ends in a torn tail (\(tornTail)); records after it are lost")
        }
        return unreadableCount > 0
    }
}
