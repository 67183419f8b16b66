import Foundation
import SDK

/// A new NDJSON file (mode 0600) written in 1 MiB pieces. Not thread-safe: one command writes it.
///
/// Made with ``init(holding:)``, the file is created only once more than one piece is written:
/// lines that fit in one are handed back by ``closeHolding()`` and never touch the disk.
package final class NDJSONFile {
    let path: String
    /// The open file; nil while a file made ``init(holding:)`` is still held in the buffer.
    private var handle: FileHandle?
    /// What is written and not yet flushed: `count` of `capacity` bytes.
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var count = 0
    /// Room a line is written into in place; a longer one is copied in from where it grew.
    private static let lineRoom = 1 << 14

    /// Creates `path`; throws ``ExportError`` when it exists or cannot be created.
    package convenience init(creating path: String) throws {
        self.init(holding: path)
        _ = try opened()
    }

    /// A file at `path` created only when what is written outgrows the buffer (throwing
    /// ``ExportError`` then if it exists or cannot be created).
    init(holding path: String) {
        self.path = path
        handle = nil
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// Appends the line `write` writes (without its newline) and a newline: written in place at
    /// the end of what is buffered.
    func writeLine(_ write: (inout ScratchBytes) -> Void) throws {
        if capacity - count < Self.lineRoom { try flush() }
        let end = buffer + count
        try ScratchBytes.withBuffer(at: end, capacity: capacity - count, { line in
            write(&line)
            line.append(UInt8(ascii: "\n"))
        }, finish: { line in
            if line.baseAddress == UnsafePointer(end) {
                count += line.count
            } else {
                // It outgrew the room left: it moved to the heap, and is written from there.
                try flush()
                try opened().write(contentsOf: UnsafeRawBufferPointer(line))
            }
        })
    }

    /// Appends `count` lines, the `index`th being the bytes `start(index)` gives, what `rest`
    /// writes for it, and a newline, each written in place as ``writeLine(_:)`` writes one (a
    /// start copied in once: handing the file each start from where it is, with `writev`, costs
    /// the kernel more per piece than the copy does).
    func writeLines(count lines: Int, start: (Int) -> UnsafeRawBufferPointer, rest: (Int, inout ScratchBytes) -> Void) throws {
        for index in 0..<lines {
            try writeLine { line in
                line.append(start(index))
                rest(index, &line)
            }
        }
    }

    /// Appends `bytes`, part of what whole lines make (the lines of a segment written apart,
    /// ``SegmentRows``): into the buffer, or straight to the file when they are a quarter of it
    /// or more (a segment's piece is not copied twice).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count || bytes.count >= capacity / 4 { try flush() }
        if bytes.count >= capacity / 4 {
            try opened().write(contentsOf: bytes)
            return
        }
        UnsafeMutableRawPointer(buffer + count).copyMemory(from: from, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends bytes that already are whole NDJSON lines.
    func writeRaw(_ bytes: [UInt8]) throws {
        try flush()
        try opened().write(contentsOf: bytes)
    }

    /// Writes out what is buffered.
    func flush() throws {
        guard count > 0 else { return }
        try opened().write(contentsOf: UnsafeRawBufferPointer(start: buffer, count: count))
        count = 0
    }

    /// Flushes and closes; the file is complete.
    package func close() throws {
        try flush()
        try handle?.close()
    }

    /// Closes a file made ``init(holding:)``: the bytes written when they were all held (no
    /// file was created), or nil once the file holds them (flushed and closed).
    func closeHolding() throws -> [UInt8]? {
        guard handle == nil else {
            try close()
            return nil
        }
        defer { count = 0 }
        return Array(UnsafeBufferPointer(start: buffer, count: count))
    }

    /// The file's handle, the file created now if it is not yet.
    private func opened() throws -> FileHandle {
        if let handle { return handle }
        guard !FileManager.default.fileExists(atPath: path) else { throw ExportError.exists(path) }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else { throw ExportError.cannotWrite(path) }
        self.handle = handle
        return handle
    }
}
