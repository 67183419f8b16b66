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
    private let name: String
    private let flushBytes: Int

    /// `name`: what the temporary file is made for (`replay-NAME-…`), named in errors;
    /// `flushBytes`: how many bytes are buffered before they are written (tests make it small).
    init(name: String, flushBytes: Int = 1 << 20) {
        self.name = name
        self.flushBytes = max(1, flushBytes)
    }

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

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let file = try self.file ?? UnlinkedTemporaryFile(label: name)
        self.file = file
        try buffer.withUnsafeBytes { try file.append($0) }
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }
}
