import Foundation

/// A receipt log's lines read and parsed on a thread of its own, a few chunks ahead of the one
/// thread that takes them (``next()``): the reconciliation's thread then only matches. The same
/// lines, numbers and errors, in the same order, as the ``ReceiptLogReader`` it reads from;
/// memory is bounded by the chunks in flight, not by the log.
final class ReadAheadReceipts {
    /// Lines per hand-over (the channel's lock is taken once per chunk).
    static let chunkLines = 512
    /// Chunks parsed ahead of the consumer at most.
    static let chunksAhead = 4

    private enum Item: Sendable {
        /// Lines, last first (the consumer takes each with `popLast()`).
        case lines([ReceiptLogReader.Line])
        /// The log cannot be read any further.
        case failure(ReceiptLogError)
    }

    /// The reader, handed to the reading thread.
    private final class HandOff: @unchecked Sendable { // safe: init(reader:) gives the reader up; only the reading thread touches it after
        let reader: ReceiptLogReader

        init(_ reader: ReceiptLogReader) {
            self.reader = reader
        }
    }

    private let channel = BoundedChannel<Item>(capacity: ReadAheadReceipts.chunksAhead)
    private var chunk: [ReceiptLogReader.Line] = []
    private var ended = false

    /// Starts reading `reader` on a new thread; the caller must not use `reader` again.
    init(reader: ReceiptLogReader) {
        let channel = self.channel
        let handOff = HandOff(reader)
        let thread = Thread { Self.produce(handOff.reader, into: channel) }
        thread.name = "replay receipts read-ahead"
        thread.start()
    }

    deinit {
        channel.close()
    }

    /// The next line, or nil at the end of the log. Throws, in place, when the file could not
    /// be read further.
    func next() throws(ReceiptLogError) -> ReceiptLogReader.Line? {
        while chunk.isEmpty {
            guard !ended, let item = channel.receive() else {
                ended = true
                return nil
            }
            switch item {
            case .lines(let lines):
                chunk = lines
            case .failure(let error):
                ended = true
                throw error
            }
        }
        return chunk.popLast()
    }

    private static func produce(_ reader: ReceiptLogReader, into channel: BoundedChannel<Item>) {
        defer { channel.finish() }
        var lines: [ReceiptLogReader.Line] = []
        lines.reserveCapacity(chunkLines)
        do throws(ReceiptLogError) {
            while let line = try reader.next() {
                lines.append(line)
                if lines.count == chunkLines {
                    lines.reverse()
                    guard channel.send(.lines(lines)) else { return }
                    lines = []
                    lines.reserveCapacity(chunkLines)
                }
            }
            lines.reverse()
            if !lines.isEmpty { _ = channel.send(.lines(lines)) }
        } catch {
            lines.reverse()
            if !lines.isEmpty, !channel.send(.lines(lines)) { return }
            _ = channel.send(.failure(error))
        }
    }
}
