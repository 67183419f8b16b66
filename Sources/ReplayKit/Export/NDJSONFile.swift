#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SDK

/// A new NDJSON file (mode 0600) written in 1 MiB pieces. Not thread-safe: one command writes it.
package final class NDJSONFile {
    let path: String
    private let handle: FileHandle
    /// What is written and not yet flushed: `count` of `capacity` bytes.
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var count = 0
    /// Room a line is written into in place; a longer one is copied in from where it grew.
    private static let lineRoom = 1 << 14
    /// Pieces of lines gathered by ``writeLines(count:start:rest:)`` and not yet written: each
    /// line's start where its caller holds it, and its rest in ``buffer``.
    private let pieces: UnsafeMutablePointer<iovec>
    private var pieceCount = 0
    /// The most pieces one `writev` takes (POSIX guarantees at least 16; Linux and Darwin take 1,024).
    private static let maximumPieces = 1024

    /// Creates `path`; throws ``ExportError`` when it exists or cannot be created.
    package init(creating path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw ExportError.exists(path) }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else { throw ExportError.cannotWrite(path) }
        self.path = path
        self.handle = handle
        buffer = .allocate(capacity: capacity)
        pieces = .allocate(capacity: Self.maximumPieces)
    }

    deinit {
        buffer.deallocate()
        pieces.deallocate()
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
                try handle.write(contentsOf: UnsafeRawBufferPointer(line))
            }
        })
    }

    /// Appends `count` lines, the `index`th being the bytes `start(index)` gives, what `rest`
    /// writes for it, and a newline. The starts are written to the file from where they are
    /// (one `writev` for many lines), not copied: they must stay valid until this returns, and
    /// every line is in the file (or in the kernel's hands) by then.
    func writeLines(count lines: Int, start: (Int) -> UnsafeRawBufferPointer, rest: (Int, inout ScratchBytes) -> Void) throws {
        // What ``writeLine(_:)`` buffered goes first.
        try flush()
        for index in 0..<lines {
            if capacity - count < Self.lineRoom || pieceCount + 2 > Self.maximumPieces { try flush() }
            let end = buffer + count
            try ScratchBytes.withBuffer(at: end, capacity: capacity - count, { line in
                rest(index, &line)
                line.append(UInt8(ascii: "\n"))
            }, finish: { line in
                if line.baseAddress == UnsafePointer(end) {
                    add(start(index))
                    add(UnsafeRawBufferPointer(start: end, count: line.count))
                    count += line.count
                } else {
                    // It outgrew the room left: it moved to the heap, and is written from there.
                    try flush()
                    add(start(index))
                    add(UnsafeRawBufferPointer(line))
                    try writePieces()
                }
            })
        }
        try flush()
    }

    private func add(_ piece: UnsafeRawBufferPointer) {
        guard piece.count > 0 else { return }
        pieces[pieceCount] = iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
        pieceCount += 1
    }

    /// Writes the gathered pieces, in order and whole (a short write goes on from where it stopped).
    private func writePieces() throws {
        var first = 0
        while first < pieceCount {
            let written = writev(handle.fileDescriptor, pieces + first, Int32(pieceCount - first))
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            var left = written
            while first < pieceCount, left >= pieces[first].iov_len {
                left -= pieces[first].iov_len
                first += 1
            }
            if left > 0 {
                pieces[first].iov_base = pieces[first].iov_base.map { $0 + left }
                pieces[first].iov_len -= left
            }
        }
        pieceCount = 0
    }

    /// Appends bytes that already are whole NDJSON lines.
    func writeRaw(_ bytes: [UInt8]) throws {
        try flush()
        try handle.write(contentsOf: bytes)
    }

    /// Writes out what is buffered.
    func flush() throws {
        if pieceCount > 0 {
            // The buffer's bytes are among the pieces, in their place.
            try writePieces()
        } else if count > 0 {
            try handle.write(contentsOf: UnsafeRawBufferPointer(start: buffer, count: count))
        }
        count = 0
    }

    /// Flushes and closes; the file is complete.
    package func close() throws {
        try flush()
        try handle.close()
    }
}
