import Foundation

/// Reads a receipt log (docs/RECONCILE.md) line by line from a file, a chunk at a time: memory
/// is bounded by the longest line it keeps (``ReceiptLine/maxLineBytes``), not by the log.
///
/// Each line is handed out with its number (from 1) as a ``ReceiptLine`` or the reason it could
/// not be read; a line too long is skipped up to its newline. Blank lines are skipped. Not
/// thread-safe: one reader per file, on one thread.
package final class ReceiptLogReader {
    /// One line read: its number and what it holds.
    package struct Line {
        package var number: Int
        package var result: Result<ReceiptLine, ReceiptLineError>
    }

    /// Nil for a log read from memory (``init(bytes:)``).
    private let handle: FileHandle?
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    private static let chunkBytes = 1 << 20

    /// Opens `path` for reading; throws ``ReceiptLogError`` when it cannot be opened.
    package init(path: String) throws(ReceiptLogError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReceiptLogError(path: path, problem: "no such file")
        }
        guard !isDirectory.boolValue else { throw ReceiptLogError(path: path, problem: "a directory, not a receipt log") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ReceiptLogError(path: path, problem: "cannot be opened") }
        self.handle = handle
    }

    /// Reads a log held in memory (the fuzz target's input), as a file of these bytes would be.
    package init(bytes: [UInt8]) {
        handle = nil
        buffer = bytes
        atEnd = true
    }

    deinit {
        try? handle?.close()
    }

    /// The next non-blank line, or nil at the end of the file. Throws only when the file
    /// cannot be read.
    package func next() throws(ReceiptLogError) -> Line? {
        while true {
            guard let (bytes, tooLong) = try nextRawLine() else { return nil }
            lineNumber += 1
            if tooLong {
                return Line(number: lineNumber, result: .failure(ReceiptLineError("the line is longer than \(ReceiptLine.maxLineBytes) bytes")))
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let trimmed = bytes.last == 0x0D ? Array(bytes.dropLast()) : bytes
            do throws(ReceiptLineError) {
                return Line(number: lineNumber, result: .success(try ReceiptLine(parsing: trimmed)))
            } catch {
                return Line(number: lineNumber, result: .failure(error))
            }
        }
    }

    /// The bytes of the next line, or of its first ``ReceiptLine/maxLineBytes`` + 1 when it is
    /// longer (then `tooLong`, the rest skipped); nil at the end.
    private func nextRawLine() throws(ReceiptLogError) -> (bytes: [UInt8], tooLong: Bool)? {
        var tooLong = false
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = tooLong ? [] : Array(buffer[start..<newline])
                start = newline + 1
                return (line, tooLong)
            }
            if buffer.count - start > ReceiptLine.maxLineBytes {
                // Too long: drop what is buffered and go on to its newline.
                tooLong = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if atEnd {
                guard start < buffer.count || tooLong else { return nil }
                let line = tooLong ? [] : Array(buffer[start...])
                buffer.removeAll()
                start = 0
                return (line, tooLong)
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk: Data?
            do {
                chunk = try handle?.read(upToCount: Self.chunkBytes)
            } catch {
                throw ReceiptLogError(path: "", problem: "cannot be read (\(error.localizedDescription))")
            }
            if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
        }
    }
}

/// A receipt log that cannot be read at all: named with why.
package struct ReceiptLogError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var problem: String

    package var description: String { path.isEmpty ? problem : "\(path): \(problem)" }
}
