import Foundation

/// Plain values kept in order in a temporary file instead of memory, and read back in order:
/// memory holds at most one buffer of them, however many are appended. `Value` must be a plain
/// value (no references): its bytes are written as they are.
///
/// Not thread-safe: one owner on one thread. The file is removed when this is.
final class SpilledValues<Value> {
    private var handle: FileHandle?
    private var path: String?
    private var buffer: [UInt8] = []
    /// How many values are in the file (the buffer holds those after).
    private var written = 0
    /// Reads single values back (``value(at:)``).
    private var reader: FileHandle?
    /// What the temporary file is called after (`replay-NAME-….values`), and named in errors.
    private let name: String
    /// How many values were appended.
    private(set) var count = 0
    private let flushBytes: Int

    /// `flushBytes`: how many bytes are buffered before they are written (tests make it small).
    init(name: String, flushBytes: Int = 1 << 20) {
        precondition(_isPOD(Value.self), "spilled values are plain values")
        self.name = name
        self.flushBytes = max(MemoryLayout<Value>.size, flushBytes)
    }

    deinit {
        try? reader?.close()
        try? handle?.close()
        if let path { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Whether any value went to the file (rather than only the buffer).
    var spilled: Bool { handle != nil }

    /// Appends `value` after those appended.
    func append(_ value: Value) throws {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0.prefix(MemoryLayout<Value>.size)) }
        count += 1
        if buffer.count >= flushBytes { try flush() }
    }

    /// Hands out every value appended, in order: the file's, then what is still buffered.
    func forEach(_ body: (Value) throws -> Void) throws {
        let size = MemoryLayout<Value>.size
        var pending: [UInt8] = []
        func parse(final: Bool) throws {
            var offset = 0
            try pending.withUnsafeBytes { raw in
                while raw.count - offset >= size {
                    try body(raw.loadUnaligned(fromByteOffset: offset, as: Value.self))
                    offset += size
                }
            }
            pending.removeFirst(offset)
            if final, !pending.isEmpty { throw SpillError.cutShort(path ?? name) }
        }
        if let path, handle != nil {
            guard let reader = FileHandle(forReadingAtPath: path) else { throw SpillError.unreadable(path, nil) }
            defer { try? reader.close() }
            while true {
                let chunk: Data?
                do { chunk = try reader.read(upToCount: flushBytes) } catch { throw SpillError.unreadable(path, error) }
                guard let chunk, !chunk.isEmpty else { break }
                pending.append(contentsOf: chunk)
                try parse(final: false)
            }
        }
        pending.append(contentsOf: buffer)
        try parse(final: true)
    }

    /// The `index`-th value appended (from 0).
    func value(at index: Int) throws -> Value {
        let size = MemoryLayout<Value>.size
        guard index >= 0, index < count else { throw SpillError.cutShort(path ?? name) }
        if index >= written {
            return buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: (index - written) * size, as: Value.self) }
        }
        guard let path else { throw SpillError.cutShort(name) }
        do {
            if reader == nil {
                guard let opened = FileHandle(forReadingAtPath: path) else { throw SpillError.unreadable(path, nil) }
                reader = opened
            }
            try reader?.seek(toOffset: UInt64(index * size))
            let data = try reader?.read(upToCount: size) ?? Data()
            guard data.count == size else { throw SpillError.cutShort(path) }
            return data.withUnsafeBytes { $0.loadUnaligned(as: Value.self) }
        } catch let error as SpillError {
            throw error
        } catch {
            throw SpillError.unreadable(path, error)
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        if handle == nil {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(name)-\(UUID().uuidString).values").path
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let opened = FileHandle(forWritingAtPath: path) else { throw SpillError.unwritable(path, nil) }
            self.path = path
            handle = opened
        }
        do { try handle?.write(contentsOf: buffer) } catch { throw SpillError.unwritable(path ?? name, error) }
        written += buffer.count / MemoryLayout<Value>.size
        buffer.removeAll(keepingCapacity: true)
    }
}
