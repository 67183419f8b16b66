import Foundation
import Journal
import SDK

/// The walking half of an NDJSON export (``JournalExport``), on a thread of its own: it folds
/// every record and writes the start of its row (`seq`, `time`, `kind` and the fleet columns,
/// which need the state before the record), and hands the rows over in batches, in journal
/// order, to the thread that redacts each record and finishes its row. On two cores the fold
/// and the redaction overlap.
///
/// The rows come out exactly as the walk gives them on the calling thread; an error the walk
/// throws comes out of ``next()`` after every row before it. Memory is bounded: at most
/// ``batchesAhead`` batches of ``batchSize`` rows are ahead of the consumer. Dropping the walk
/// early stops the thread and waits for it.
final class ExportWalk {
    /// Rows per hand-over (the lock is taken once per batch, not per row, and a thread that
    /// waits for the other is woken once per batch: 1,024 rows wake it a quarter as often as
    /// 256 did, for about 0.5 MiB of row starts a batch).
    static let batchSize = 1024
    /// Batches walked ahead of the consumer at most.
    static let batchesAhead = 4

    /// Rows begun on the walking thread: each record, with where its row's start ends in `starts`.
    struct Batch: Sendable {
        var starts: [UInt8] = []
        var rows: [(record: DecodedRecord, end: Int)] = []

        /// An empty batch with room for `rows` rows whose starts are about as long as
        /// `startBytes` (a batch's arrays then grow rarely, not a dozen times each).
        static func reserving(rows: Int, startBytes: Int) -> Batch {
            var batch = Batch()
            batch.starts.reserveCapacity(startBytes)
            batch.rows.reserveCapacity(rows)
            return batch
        }
    }

    private enum Item: Sendable {
        case rows(Batch)
        case end
        case failure(HandedOverError)
    }

    /// What an unreadable record says in an export, in place of why it was unreadable.
    static let unreadableReason = "not readable by this build; left out of the export"

    private let channel = BoundedChannel<Item>(capacity: ExportWalk.batchesAhead)
    private var ended = false

    /// Starts walking `reader` from its first retained record on a new thread.
    init(reader: JournalReader) {
        let channel = self.channel
        let thread = Thread {
            Self.walk(reader, into: channel)
        }
        thread.name = "replay export walk"
        thread.start()
    }

    deinit {
        channel.close()
    }

    /// The next batch of rows; nil after the last. Throws what the walk threw, in place.
    func next() throws -> Batch? {
        guard !ended, let item = channel.receive() else {
            ended = true
            return nil
        }
        switch item {
        case .rows(let batch):
            return batch
        case .end:
            ended = true
            return nil
        case .failure(let thrown):
            ended = true
            throw thrown.error
        }
    }

    /// Appends the start of `record`'s row to `starts`, given the walk's state before it.
    private static func writeRowStart(of record: borrowing DecodedRecord, time: String, walk: JournalWalk,
                                      columns: inout FleetColumns, into starts: inout [UInt8]) {
        ScratchBytes.withScratch(capacity: 1024) { start in
            walk.withState { state in
                JournalExport.writeRowStart(record, time: time, columns: &columns, before: state, to: &start)
            }
            starts.append(contentsOf: start.written)
        }
    }

    private static func walk(_ reader: JournalReader, into channel: BoundedChannel<Item>) {
        defer { channel.finish() }
        do {
            var columns = FleetColumns(reader: reader)
            let walk = try JournalWalk(reader: reader)
            var batch = Batch.reserving(rows: batchSize, startBytes: 0)
            // The facts of one input share their time: its text is made once for them.
            var time: JournalTime?
            var timeText = ""
            while let record = try walk.next() {
                if record.time != time {
                    time = record.time
                    timeText = record.time.description
                }
                writeRowStart(of: record, time: timeText, walk: walk, columns: &columns, into: &batch.starts)
                walk.fold(record)
                batch.rows.append((record, batch.starts.count))
                if batch.rows.count == batchSize {
                    let startBytes = batch.starts.count
                    guard channel.send(.rows(batch)) else { return }
                    batch = Batch.reserving(rows: batchSize, startBytes: startBytes + startBytes / 4)
                }
            }
            if !batch.rows.isEmpty { guard channel.send(.rows(batch)) else { return } }
            _ = channel.send(.end)
        } catch {
            _ = channel.send(.failure(HandedOverError(error: error)))
        }
    }
}
