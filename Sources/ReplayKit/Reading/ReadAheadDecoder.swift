import Foundation
import Journal

/// Reads and decodes a journal's records on a thread of its own, ahead of the thread that folds
/// them, so that on two cores decompressing and decoding the next records overlaps folding and
/// checking the current ones.
///
/// The reading thread decompresses every record; who decodes a chunk balances itself: when the
/// consumer has nothing left to take (it is waiting), the next chunk goes to it undecoded (the
/// payloads copied) and it decodes the chunk itself; otherwise the reading thread decodes it.
/// Decoding is pure, so which thread decoded a record never shows.
///
/// The records come out in journal order, exactly as a ``RecordCursor`` in the reader's mode and
/// ``RecordDecoder`` would give them on the calling thread; an error the cursor throws comes out
/// of ``next()`` after every record before it, where the cursor would have thrown it. Memory is
/// bounded: at most ``chunksAhead`` chunks of ``chunkSize`` records are read ahead.
/// Dropping the reader early (a walk that stops at a moment) stops the thread and waits for it.
///
/// A small journal (``readsInline(_:)``) is read and decoded on the calling thread, no thread
/// started: with many journals read side by side (a fleet's folder), a thread and its
/// hand-overs per journal cost more than the overlap gains, and the workers already fill the
/// cores. The records, errors and torn tail are the same either way.
final class ReadAheadDecoder {
    /// Records per hand-over (the lock is taken once per chunk, not per record).
    static let chunkSize = 256
    /// Chunks read ahead of the consumer at most.
    static let chunksAhead = 4

    /// Records read but not decoded: their payloads one after the other in `bytes`.
    private struct UndecodedChunk: Sendable {
        struct Entry: Sendable {
            var sequence: UInt64
            var time: JournalTime
            var kind: UInt32
            var end: Int
        }
        var bytes: [UInt8] = []
        var entries: [Entry] = []
    }

    /// What the reading thread hands over.
    private enum Item: Sendable {
        /// Decoded records, last first (reversed by the reading thread, which holds the only
        /// reference: reversing on the consumer's side would copy the shared array).
        case records([DecodedRecord])
        case undecoded(UndecodedChunk)
        /// What a salvaging cursor stepped over before the records that follow (the chunk before
        /// it is handed over first, so the next record is the first read after the skip).
        case skipped([SkippedRange])
        /// The journal ended, on a torn tail or not, with what a salvaging cursor stepped over
        /// after the last record.
        case end(tornTail: Damage?, skipped: [SkippedRange])
        /// The cursor threw.
        case failure(HandedOverError)
    }

    /// A journal of one segment of at most this many bytes is read on the calling thread.
    static let inlineBytes = 1 << 20

    /// Whether `reader`'s records are read on the calling thread: one segment, of at most
    /// ``inlineBytes`` (compressed: a few thousand records).
    static func readsInline(_ reader: JournalReader) -> Bool {
        reader.segments.count == 1 && reader.segments[0].bytes <= inlineBytes
    }

    /// The reading thread's channel; nil when the records are read on the calling thread.
    private let channel: BoundedChannel<Item>?
    /// The cursor read on the calling thread (a small journal), until it ends or throws.
    private var cursor: RecordCursor?
    /// What opening the cursor on the calling thread threw, thrown by the first ``next()``.
    private var openingError: (any Error)?
    private let decoding: RecordDecoding
    /// Whether the reader goes on past damage (``JournalReader/readMode`` not strict): only then
    /// are the cursor's skips looked at, record by record.
    private let readsPastDamage: Bool
    /// The current chunk, last record first: each is moved out with `popLast()`, not copied.
    /// Its exclusive access is not checked at run time: only ``next()`` touches it, never
    /// with another access open, and the reader is not Sendable, so one thread at a time; the
    /// check would cost two per record.
    @exclusivity(unchecked) private var chunk: [DecodedRecord] = []
    private var ended = false
    /// The torn tail that ended the journal, once the consumer has reached the end.
    private(set) var tornTail: Damage?
    /// What the cursor stepped over in a salvaging mode (``JournalReader/readMode``), up to the
    /// record last handed out (and after it, once the consumer has reached the end).
    private(set) var skipped: [SkippedRange] = []
    /// Whether the record last handed out is the first read after a skip (``skipped``'s last).
    /// Both flags' exclusive access is not checked at run time, for the reason ``chunk``'s is not.
    @exclusivity(unchecked) private(set) var lastFollowsSkip = false
    @exclusivity(unchecked) private var nextFollowsSkip = false

    /// Starts reading `reader` from `sequence` (from its start when nil) on a new thread; on
    /// the calling thread when `readsAhead` is false (a worker of a fold side by side, whose
    /// peers already fill the cores) or the journal is small (``readsInline(_:)``).
    init(reader: JournalReader, from sequence: UInt64?, decoding: RecordDecoding, readsAhead: Bool = true) {
        self.decoding = decoding
        readsPastDamage = reader.readMode != .strict
        guard readsAhead, !Self.readsInline(reader) else {
            channel = nil
            do { cursor = try reader.records(from: sequence) } catch { openingError = error }
            return
        }
        let channel = BoundedChannel<Item>(capacity: ReadAheadDecoder.chunksAhead)
        self.channel = channel
        let thread = Thread {
            Self.produce(reader: reader, from: sequence, decoding: decoding, into: channel)
        }
        thread.name = "replay read-ahead"
        thread.start()
    }

    deinit {
        channel?.close()
    }

    /// The next record; nil at the end of the journal. Throws what the cursor threw, in place.
    func next() throws -> DecodedRecord? {
        guard let channel else { return try nextInline() }
        while chunk.isEmpty {
            guard !ended, let item = channel.receive() else {
                ended = true
                return nil
            }
            switch item {
            case .records(let records):
                chunk = records
            case .undecoded(let undecoded):
                chunk = Self.decode(undecoded, decoding: decoding)
                chunk.reverse()
            case .skipped(let ranges):
                skipped += ranges
                nextFollowsSkip = true
            case .end(let tail, let ranges):
                tornTail = tail
                skipped += ranges
                lastFollowsSkip = false
                ended = true
                return nil
            case .failure(let thrown):
                ended = true
                throw thrown.error
            }
        }
        if lastFollowsSkip || nextFollowsSkip {
            lastFollowsSkip = nextFollowsSkip
            nextFollowsSkip = false
        }
        return chunk.popLast()
    }

    /// The next record of a journal read on the calling thread.
    private func nextInline() throws -> DecodedRecord? {
        if let openingError {
            self.openingError = nil
            ended = true
            throw openingError
        }
        guard !ended, let cursor else { return nil }
        do {
            guard let view = try cursor.nextView() else {
                tornTail = cursor.tornTail
                skipped = cursor.skipped
                lastFollowsSkip = false
                ended = true
                self.cursor = nil
                return nil
            }
            // A skip the cursor made (a salvaging mode) comes before the record it returned.
            if readsPastDamage {
                lastFollowsSkip = cursor.skipped.count > skipped.count
                if lastFollowsSkip { skipped = cursor.skipped }
            }
            return RecordDecoder.decode(view, decoding: decoding)
        } catch {
            ended = true
            self.cursor = nil
            throw error
        }
    }

    private static func decode(_ undecoded: UndecodedChunk, decoding: RecordDecoding) -> [DecodedRecord] {
        undecoded.bytes.withUnsafeBytes { bytes in
            var start = 0
            return undecoded.entries.map { entry in
                defer { start = entry.end }
                return RecordDecoder.decode(sequence: entry.sequence, time: entry.time, kind: entry.kind,
                                            payload: UnsafeRawBufferPointer(rebasing: bytes[start..<entry.end]),
                                            decoding: decoding)
            }
        }
    }

    private static func produce(reader: JournalReader, from sequence: UInt64?, decoding: RecordDecoding,
                                into channel: BoundedChannel<Item>) {
        defer { channel.finish() }
        var records: [DecodedRecord] = []
        var undecoded = UndecodedChunk()
        /// Whether the chunk being read goes undecoded (decided when it starts).
        var handsOverUndecoded = false
        var count = 0
        func send() -> Bool {
            defer { count = 0 }
            if handsOverUndecoded {
                defer { undecoded = UndecodedChunk() }
                return channel.send(.undecoded(undecoded))
            }
            defer { records = [] }
            records.reverse()
            return channel.send(.records(records))
        }
        /// How many of the cursor's skips were handed over (a strict cursor throws instead).
        var skipsSent = 0
        let salvages = reader.readMode != .strict
        do {
            let cursor = try reader.records(from: sequence)
            while let view = try cursor.nextView() {
                if salvages, cursor.skipped.count > skipsSent {
                    if count > 0 { guard send() else { return } }
                    guard channel.send(.skipped(Array(cursor.skipped[skipsSent...]))) else { return }
                    skipsSent = cursor.skipped.count
                }
                if count == 0 {
                    // The consumer waits for records: let it decode this chunk itself.
                    handsOverUndecoded = channel.isEmpty
                    if !handsOverUndecoded { records.reserveCapacity(chunkSize) }
                }
                if handsOverUndecoded {
                    undecoded.bytes.append(contentsOf: view.payload)
                    undecoded.entries.append(.init(sequence: view.sequence, time: view.timestamp, kind: view.kind,
                                                   end: undecoded.bytes.count))
                } else {
                    records.append(RecordDecoder.decode(view, decoding: decoding))
                }
                count += 1
                if count == chunkSize { guard send() else { return } }
            }
            if count > 0 { guard send() else { return } }
            _ = channel.send(.end(tornTail: cursor.tornTail, skipped: Array(cursor.skipped[skipsSent...])))
        } catch {
            if count > 0 { guard send() else { return } }
            _ = channel.send(.failure(HandedOverError(error: error)))
        }
    }
}
