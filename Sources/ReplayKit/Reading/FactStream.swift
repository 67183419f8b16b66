import Journal
import SDK

/// Streams a journal's records, decoded, in sequence order. They are read and decoded ahead on
/// a thread of their own (``ReadAheadDecoder``): at most a few thousand records in memory.
///
/// Strict: corruption throws ``JournalError/corrupted(_:)`` (commands report it and exit 1); a
/// torn tail ends the stream normally and is kept in ``tornTail``. Records that cannot be
/// interpreted are returned as ``DecodedRecord/Content/unreadable(_:)`` and counted.
package final class FactStream {
    private let records: ReadAheadDecoder
    private let decodesSnapshots: Bool
    /// The first unreadable records (sequence and reason), at most ``unreadableSampleLimit``.
    private(set) var unreadableSample: [(sequence: UInt64, reason: String)] = []
    /// How many unreadable records were returned so far.
    private(set) var unreadableCount = 0
    static let unreadableSampleLimit = 20

    package init(reader: JournalReader, from sequence: UInt64? = nil, decodesSnapshots: Bool = true) throws {
        records = ReadAheadDecoder(reader: reader, from: sequence, decodesSnapshots: decodesSnapshots)
        self.decodesSnapshots = decodesSnapshots
    }

    /// The torn tail that ended the stream, if it ended on one.
    var tornTail: Damage? { records.tornTail }

    /// The next record; nil at the end of the journal.
    package func next() throws -> DecodedRecord? {
        guard let record = try records.next() else { return nil }
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
