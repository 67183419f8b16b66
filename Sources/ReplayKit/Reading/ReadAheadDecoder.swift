import Foundation
import Journal

/// Reads and decodes a journal's records on a thread of its own, ahead of the thread that folds
/// them, so that on two cores decompressing and decoding the next records overlaps folding and
/// checking the current ones.
///
/// The records come out in journal order, exactly as a ``RecordCursor`` in strict mode and
/// ``RecordDecoder`` would give them on the calling thread; an error the cursor throws comes out
/// of ``next()`` after every record before it, where the cursor would have thrown it. Memory is
/// bounded: at most ``batchesAhead`` batches of ``batchSize`` records are decoded ahead.
/// Dropping the reader early (a walk that stops at a moment) stops the thread and waits for it.
final class ReadAheadDecoder {
    /// Records per hand-over (the lock is taken once per batch, not per record).
    static let batchSize = 128
    /// Batches decoded ahead of the consumer at most.
    static let batchesAhead = 8

    /// What the reading thread hands over.
    private enum Item: Sendable {
        case records([DecodedRecord])
        /// The journal ended, on a torn tail or not.
        case end(tornTail: Damage?)
        /// The cursor threw.
        case failure(ThrownError)
    }

    /// An error thrown on the reading thread, carried to the consumer.
    private struct ThrownError: @unchecked Sendable {
        // Unchecked: the cursor throws `JournalError` values, which are Sendable; the box only
        // hides `any Error` from the checker, and the reading thread keeps no reference to the
        // error once it has handed it over.
        let error: any Error
    }

    private let channel = BoundedChannel<Item>(capacity: ReadAheadDecoder.batchesAhead)
    private var batch: [DecodedRecord] = []
    private var position = 0
    private var ended = false
    /// The torn tail that ended the journal, once the consumer has reached the end.
    private(set) var tornTail: Damage?

    /// Starts reading `reader` from `sequence` (from its start when nil) on a new thread.
    init(reader: JournalReader, from sequence: UInt64?, decodesSnapshots: Bool) {
        let channel = self.channel
        let thread = Thread {
            Self.produce(reader: reader, from: sequence, decodesSnapshots: decodesSnapshots, into: channel)
        }
        thread.name = "replay read-ahead"
        thread.start()
    }

    deinit {
        channel.close()
    }

    /// The next record; nil at the end of the journal. Throws what the cursor threw, in place.
    func next() throws -> DecodedRecord? {
        while position == batch.count {
            guard !ended, let item = channel.receive() else {
                ended = true
                return nil
            }
            switch item {
            case .records(let records):
                batch = records
                position = 0
            case .end(let tail):
                tornTail = tail
                ended = true
                return nil
            case .failure(let thrown):
                ended = true
                batch = []
                position = 0
                throw thrown.error
            }
        }
        defer { position += 1 }
        return batch[position]
    }

    private static func produce(reader: JournalReader, from sequence: UInt64?, decodesSnapshots: Bool,
                                into channel: BoundedChannel<Item>) {
        defer { channel.finish() }
        var records: [DecodedRecord] = []
        records.reserveCapacity(batchSize)
        do {
            let cursor = try reader.records(from: sequence)
            while let view = try cursor.nextView() {
                records.append(RecordDecoder.decode(view, decodingSnapshots: decodesSnapshots))
                if records.count == batchSize {
                    guard channel.send(.records(records)) else { return }
                    records = []
                    records.reserveCapacity(batchSize)
                }
            }
            if !records.isEmpty { guard channel.send(.records(records)) else { return } }
            _ = channel.send(.end(tornTail: cursor.tornTail))
        } catch {
            if !records.isEmpty { guard channel.send(.records(records)) else { return } }
            _ = channel.send(.failure(ThrownError(error: error)))
        }
    }
}
