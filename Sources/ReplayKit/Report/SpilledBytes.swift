import Foundation

/// Byte strings kept in a temporary file instead of memory, each read back on its own by where
/// it was put: memory holds at most one buffer of them, however many are appended.
///
/// Not thread-safe: one owner on one thread. The file has no name (``UnlinkedTemporaryFile``):
/// it goes with this, or with the process however it ends.
final class SpilledBytes {
    /// The bytes written (made at the first flush); the buffer holds those after.
    private var file: UnlinkedTemporaryFile?
    /// The bytes not written yet; they start at `written` in the file.
    private var buffer: [UInt8] = []
    private var written: UInt64 = 0
    /// What the temporary file is made for, named in errors.
    let name: String
    private let flushBytes: Int

    /// `name`: what the temporary file is made for (`replay-NAME-…`), named in errors;
    /// `flushBytes`: how many bytes are buffered before they are written (tests make it small).
    init(name: String, flushBytes: Int = 1 << 20) {
        self.name = name
        self.flushBytes = max(1, flushBytes)
    }

    /// Whether any bytes went to the file (rather than only the buffer).
    var spilled: Bool { file != nil }

    /// Appends `bytes`; returns where they start, for ``read(at:count:)``.
    func append(_ bytes: some Collection<UInt8>) throws -> UInt64 {
        let start = written + UInt64(buffer.count)
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushBytes { try flush() }
        return start
    }

    /// The `count` bytes appended at `offset`.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        if offset >= written {
            let start = Int(offset - written)
            guard start + count <= buffer.count else { throw SpillError.cutShort(name) }
            return Array(buffer[start..<start + count])
        }
        // Everything before `written` is in the file (a value is flushed whole with the buffer).
        guard let file else { throw SpillError.cutShort(name) }
        return try file.read(at: offset, count: count)
    }

    /// Hands out every byte appended, in order, in chunks of a whole number of `unit`s (the file's
    /// a chunk at a time, then what is still buffered), for a reader of `unit`-byte records.
    func forEachChunk(of unit: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let file {
            var chunk = [UInt8](repeating: 0, count: max(unit, flushBytes / unit * unit))
            var offset: UInt64 = 0
            while offset < written {
                let got = try chunk.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
                guard got > 0, got % unit == 0 else { throw SpillError.cutShort(name) }
                try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
                offset += UInt64(got)
            }
        }
        guard buffer.count % unit == 0 else { throw SpillError.cutShort(name) }
        try buffer.withUnsafeBytes { try body($0) }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let file = try self.file ?? UnlinkedTemporaryFile(label: name)
        self.file = file
        try buffer.withUnsafeBytes { try file.append($0) }
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }
}
