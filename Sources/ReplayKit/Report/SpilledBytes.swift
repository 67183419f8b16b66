import Foundation

/// Byte strings kept in a temporary file instead of memory, each read back on its own by where
/// it was put: memory holds at most one buffer of them, however many are appended.
///
/// Not thread-safe: one owner on one thread. The file is removed when this is.
final class SpilledBytes {
    private var handle: FileHandle?
    private var path: String?
    /// The bytes not written yet; they start at `written` in the file.
    private var buffer: [UInt8] = []
    private var written: UInt64 = 0
    /// Reads byte strings back (``read(at:count:)``).
    private var reader: FileHandle?
    private let name: String
    private let flushBytes: Int

    /// `name`: what the temporary file is called after (`replay-NAME-….bytes`); `flushBytes`:
    /// how many bytes are buffered before they are written (tests make it small).
    init(name: String, flushBytes: Int = 1 << 20) {
        self.name = name
        self.flushBytes = max(1, flushBytes)
    }

    deinit {
        try? reader?.close()
        try? handle?.close()
        if let path { try? FileManager.default.removeItem(atPath: path) }
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
            guard start + count <= buffer.count else { throw SpillError.cutShort(path ?? name) }
            return Array(buffer[start..<start + count])
        }
        guard let path else { throw SpillError.cutShort(name) }
        // Everything before `written` is in the file (a value is flushed whole with the buffer).
        do {
            if reader == nil {
                guard let opened = FileHandle(forReadingAtPath: path) else { throw SpillError.unreadable(path, nil) }
                reader = opened
            }
            guard let reader else { throw SpillError.unreadable(path, nil) }
            try reader.seek(toOffset: offset)
            let data = try reader.read(upToCount: count) ?? Data()
            guard data.count == count else { throw SpillError.cutShort(path) }
            return Array(data)
        } catch let error as SpillError {
            throw error
        } catch {
            throw SpillError.unreadable(path, error)
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        if handle == nil {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(name)-\(UUID().uuidString).bytes").path
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let opened = FileHandle(forWritingAtPath: path) else { throw SpillError.unwritable(path, nil) }
            self.path = path
            handle = opened
        }
        do { try handle?.write(contentsOf: buffer) } catch { throw SpillError.unwritable(path ?? name, error) }
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }
}
