import Foundation

/// Reads a receipt log (docs/RECONCILE.md) line by line from a file, a chunk at a time: memory
/// is bounded by the longest line it keeps (``ReceiptLine/maxLineBytes``), not by the log.
///
/// Each line is handed out with its number (from 1) as a ``ReceiptLine`` or the reason it could
/// not be read; a line too long is skipped up to its newline. Blank lines are skipped. Not
/// thread-safe: one reader per file, on one thread.
package final class ReceiptLogReader {
    /// One line read: its number and what it holds.
    package struct Line: Sendable {
        package var number: Int
        package var result: Result<ReceiptLine, ReceiptLineError>

        package init(number: Int, result: Result<ReceiptLine, ReceiptLineError>) {
            self.number = number
            self.result = result
        }
    }

    /// Nil for a log read from memory (``init(bytes:)``).
    private let handle: FileHandle?
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    private var scanner = ReceiptLineScanner()
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
            guard let (range, tooLong) = try nextRawLine() else { return nil }
            lineNumber += 1
            if tooLong {
                return Line(number: lineNumber, result: .failure(ReceiptLineError("the line is longer than \(ReceiptLine.maxLineBytes) bytes")))
            }
            let result: Result<ReceiptLine, ReceiptLineError>? = buffer.withUnsafeBufferPointer { all in
                var bytes = UnsafeBufferPointer(rebasing: all[range])
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                if bytes.last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
                do throws(ReceiptLineError) {
                    return .success(try ReceiptLine(parsing: bytes, scanner: &scanner))
                } catch {
                    return .failure(error)
                }
            }
            guard let result else { continue }
            return Line(number: lineNumber, result: result)
        }
    }

    /// Where in ``buffer`` the next line is, or an empty range when it is longer than
    /// ``ReceiptLine/maxLineBytes`` + 1 (then `tooLong`, the rest skipped); nil at the end.
    private func nextRawLine() throws(ReceiptLogError) -> (range: Range<Int>, tooLong: Bool)? {
        var tooLong = false
        while true {
            let newline: Int? = buffer.withUnsafeBytes { raw in
                guard start < raw.count, let base = raw.baseAddress,
                      let found = memchr(base + start, 0x0A, raw.count - start) else { return nil }
                return base.distance(to: UnsafeRawPointer(found))
            }
            if let newline {
                let line = tooLong ? start..<start : start..<newline
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
                let line = tooLong ? start..<start : start..<buffer.count
                start = buffer.count
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
