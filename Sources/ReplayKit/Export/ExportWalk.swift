import Foundation
import Journal
import SDK

/// The walking half of an NDJSON export (``JournalExport``), on a thread of its own: it folds
/// every record and writes the start of its row (`seq`, `time`, `kind` and the fleet columns,
/// which need the state before the record), and hands the rows over in chunks, in journal
/// order, to the thread that redacts each record and finishes its row. On two cores the fold
/// and the redaction overlap.
///
/// The rows come out exactly as the walk gives them on the calling thread; an error the walk
/// throws comes out of ``next()`` after every row before it. Memory is bounded: at most
/// ``chunksAhead`` chunks of ``chunkSize`` rows are ahead of the consumer. Dropping the walk
/// early stops the thread and waits for it.
///
/// A small journal (``ReadAheadDecoder/readsInline(_:)``) is walked on the calling thread, a
/// chunk at each ``next()``, no thread started: with many journals exported side by side, a
/// thread per journal costs more than the overlap gains. The rows are the same either way.
final class ExportWalk {
    /// Rows per hand-over (the lock is taken once per chunk, not per row, and a thread that
    /// waits for the other is woken once per chunk: 1,024 rows wake it a quarter as often as
    /// 256 would, for about 0.5 MiB of row starts a chunk).
    static let chunkSize = 1024
    /// Chunks walked ahead of the consumer at most.
    static let chunksAhead = 4

    /// Rows begun on the walking thread: each record, with where its row's start ends in `starts`.
    struct Chunk: Sendable {
        /// The rows' starts, one after another, in the first ``startBytes`` bytes: the array's
        /// count is its room (the bytes past them are not initialized), so that each start is
        /// written in place, not copied in.
        private(set) var starts: [UInt8] = []
        private(set) var startBytes = 0
        private(set) var rows: [(record: DecodedRecord, end: Int)] = []
        /// Room a row's start is written into in place; a longer one is copied in from where it grew.
        private static let startRoom = 1 << 12

        /// An empty chunk with room for `rows` rows whose starts take about `startBytes`.
        static func reserving(rows: Int, startBytes: Int) -> Chunk {
            var chunk = Chunk()
            chunk.starts = Self.room(max(startBytes, 2 * startRoom))
            chunk.rows.reserveCapacity(rows)
            return chunk
        }

        private static func room(_ count: Int) -> [UInt8] {
            Array(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }

        /// The start of row `index`, valid as long as `starts` is (a buffer pointer into its bytes).
        func start(of index: Int, in starts: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: starts[(index == 0 ? 0 : rows[index - 1].end)..<rows[index].end])
        }

        /// Makes the room at least `count` bytes (at least twice what it was), the starts
        /// written so far copied over: the room past them is not (appending a room would copy it).
        private mutating func grow(toAtLeast count: Int) {
            var grown = Self.room(max(count, 2 * starts.count))
            let used = startBytes
            if used > 0 {
                grown.withUnsafeMutableBufferPointer { room in
                    starts.withUnsafeBufferPointer { old in room.baseAddress!.update(from: old.baseAddress!, count: used) }
                }
            }
            starts = grown
        }

        /// Writes the start of a row with `write`, in place after the others.
        mutating func writeStart(_ write: (inout ScratchBytes) -> Void) {
            if starts.count - startBytes < Self.startRoom { grow(toAtLeast: starts.count + Self.startRoom) }
            var outgrown: [UInt8]?
            let used = startBytes
            starts.withUnsafeMutableBufferPointer { room in
                let end = room.baseAddress! + used
                ScratchBytes.withBuffer(at: end, capacity: room.count - used, write, finish: { start in
                    if start.baseAddress == UnsafePointer(end) { startBytes += start.count } else { outgrown = Array(start) }
                })
            }
            if let outgrown {
                if starts.count - startBytes < outgrown.count { grow(toAtLeast: startBytes + outgrown.count) }
                starts.withUnsafeMutableBufferPointer { room in
                    (room.baseAddress! + startBytes).update(from: outgrown, count: outgrown.count)
                }
                startBytes += outgrown.count
            }
        }

        /// Adds `record`, whose row's start was written last.
        mutating func append(_ record: consuming DecodedRecord) {
            rows.append((record, startBytes))
        }
    }

    private enum Item: Sendable {
        case rows(Chunk)
        case end
        case failure(HandedOverError)
    }

    /// What an unreadable record says in an export, in place of why it was unreadable.
    static let unreadableReason = "not readable by this build; left out of the export"

    /// The walking thread's channel; nil when the journal is walked on the calling thread.
    private let channel: BoundedChannel<Item>?
    /// The rows walked on the calling thread (a small journal).
    private var inline: Rows?
    private var ended = false

    /// Starts walking `reader` from its first retained record: on a new thread, or, for a
    /// small journal, on the calling thread as ``next()`` asks.
    init(reader: JournalReader) {
        guard !ReadAheadDecoder.readsInline(reader) else {
            channel = nil
            inline = Rows(reader: reader)
            return
        }
        let channel = BoundedChannel<Item>(capacity: ExportWalk.chunksAhead)
        self.channel = channel
        let thread = Thread {
            Self.walk(reader, into: channel)
        }
        thread.name = "replay export walk"
        thread.start()
    }

    deinit {
        channel?.close()
    }

    /// The next chunk of rows; nil after the last. Throws what the walk threw, in place.
    func next() throws -> Chunk? {
        guard let channel else {
            guard !ended, inline != nil else { return nil }
            do {
                guard let chunk = try inline?.next() else {
                    ended = true
                    return nil
                }
                return chunk
            } catch {
                ended = true
                throw error
            }
        }
        guard !ended, let item = channel.receive() else {
            ended = true
            return nil
        }
        switch item {
        case .rows(let chunk):
            return chunk
        case .end:
            ended = true
            return nil
        case .failure(let thrown):
            ended = true
            throw thrown.error
        }
    }

    /// Writes the start of `record`'s row into `chunk`, given the walk's state before it.
    private static func writeRowStart(of record: borrowing DecodedRecord, time: String, walk: JournalWalk,
                                      columns: inout FleetColumns, into chunk: inout Chunk) {
        chunk.writeStart { start in
            walk.withState { state in
                JournalExport.writeRowStart(record, time: time, columns: &columns, before: state, to: &start)
            }
        }
    }

    private static func walk(_ reader: JournalReader, into channel: BoundedChannel<Item>) {
        defer { channel.finish() }
        var rows = Rows(reader: reader)
        do {
            while let chunk = try rows.next() {
                guard channel.send(.rows(chunk)) else { return }
            }
            _ = channel.send(.end)
        } catch {
            _ = channel.send(.failure(HandedOverError(error: error)))
        }
    }

    /// The walk itself, a chunk of rows at a time, on whichever thread asks.
    private struct Rows {
        let reader: JournalReader
        private var columns: FleetColumns
        private var walk: JournalWalk?
        private var times = RecordTimeText()
        /// The starts' bytes of the last chunk, to reserve the next one's.
        private var lastStartBytes = 0
        /// What the walk threw after rows of the chunk that held them: thrown by the next call.
        private var failure: (any Error)?
        private var finished = false

        init(reader: JournalReader) {
            self.reader = reader
            columns = FleetColumns(reader: reader)
        }

        /// The next chunk of at most ``ExportWalk/chunkSize`` rows; nil after the last. An
        /// error comes after every row walked before it.
        mutating func next() throws -> Chunk? {
            if let failure {
                self.failure = nil
                finished = true
                throw failure
            }
            guard !finished else { return nil }
            // The rows begun and not yet handed over: they go before an error the walk throws.
            var chunk = Chunk.reserving(rows: chunkSize, startBytes: lastStartBytes + lastStartBytes / 4)
            do {
                let walk = try self.walk ?? JournalWalk(reader: reader)
                self.walk = walk
                while chunk.rows.count < chunkSize, let record = try walk.next() {
                    let timeText = times.text(of: record.time)
                    writeRowStart(of: record, time: timeText, walk: walk, columns: &columns, into: &chunk)
                    walk.fold(record)
                    chunk.append(consume record)
                }
            } catch {
                guard chunk.rows.isEmpty else {
                    failure = error
                    return chunk
                }
                finished = true
                throw error
            }
            if chunk.rows.count < chunkSize { finished = true }
            lastStartBytes = chunk.startBytes
            return chunk.rows.isEmpty ? nil : chunk
        }
    }
}
