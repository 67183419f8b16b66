import Foundation
import SDK

/// A new NDJSON file (mode 0600) written in 64 KiB pieces. Not thread-safe: one command writes it.
package final class NDJSONFile {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    /// Creates `path`; throws ``ExportError`` when it exists or cannot be created.
    package init(creating path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw ExportError.exists(path) }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else { throw ExportError.cannotWrite(path) }
        self.path = path
        self.handle = handle
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends the line `write` writes (without its newline) and a newline.
    func writeLine(_ write: (inout ScratchBytes) -> Void) throws {
        ScratchBytes.withScratch(capacity: 4096) { line in
            write(&line)
            line.append(UInt8(ascii: "\n"))
            buffer.append(contentsOf: line.written)
        }
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends bytes that already are whole NDJSON lines.
    func writeRaw(_ bytes: [UInt8]) throws {
        try flush()
        try handle.write(contentsOf: bytes)
    }

    /// Writes out what is buffered.
    func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; the file is complete.
    package func close() throws {
        try flush()
        try handle.close()
    }
}
