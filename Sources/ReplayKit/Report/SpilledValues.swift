import Foundation

/// Plain values kept in order in a temporary file instead of memory, and read back in order:
/// memory holds at most one buffer of them, however many are appended. `Value` must be a plain
/// value (no references): its bytes are written as they are.
///
/// Not thread-safe: one owner on one thread. The file has no name (``UnlinkedTemporaryFile``):
/// it goes with this, or with the process however it ends.
final class SpilledValues<Value> {
    /// The values written (made at the first flush); the buffer holds those after.
    private var file: UnlinkedTemporaryFile?
    private var buffer: [UInt8] = []
    /// How many values are in the file.
    private var written = 0
    /// What the temporary file is made for (`replay-NAME-…`), and named in errors.
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

    /// Whether any value went to the file (rather than only the buffer).
    var spilled: Bool { file != nil }

    /// Appends `value` after those appended.
    func append(_ value: Value) throws {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0.prefix(MemoryLayout<Value>.size)) }
        count += 1
        if buffer.count >= flushBytes { try flush() }
    }

    /// Hands out every value appended, in order: the file's, then what is still buffered.
    func forEach(_ body: (Value) throws -> Void) throws {
        let size = MemoryLayout<Value>.size
        if let file {
            // Whole values a chunk at a time: the file holds only whole values.
            var chunk = [UInt8](repeating: 0, count: max(size, flushBytes / size * size))
            var offset: UInt64 = 0
            while offset < file.size {
                let got = try chunk.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
                guard got > 0, got % size == 0 else { throw SpillError.cutShort(name) }
                try chunk.withUnsafeBytes { raw in
                    for start in stride(from: 0, to: got, by: size) { try body(raw.loadUnaligned(fromByteOffset: start, as: Value.self)) }
                }
                offset += UInt64(got)
            }
        }
        try buffer.withUnsafeBytes { raw in
            for start in stride(from: 0, to: raw.count - raw.count % size, by: size) {
                try body(raw.loadUnaligned(fromByteOffset: start, as: Value.self))
            }
        }
    }

    /// The `index`-th value appended (from 0).
    func value(at index: Int) throws -> Value {
        let size = MemoryLayout<Value>.size
        guard index >= 0, index < count else { throw SpillError.cutShort(name) }
        if index >= written {
            return buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: (index - written) * size, as: Value.self) }
        }
        guard let file else { throw SpillError.cutShort(name) }
        return try file.read(at: UInt64(index * size), count: size).withUnsafeBytes { $0.loadUnaligned(as: Value.self) }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let file = try self.file ?? UnlinkedTemporaryFile(label: name)
        self.file = file
        try buffer.withUnsafeBytes { try file.append($0) }
        written += buffer.count / MemoryLayout<Value>.size
        buffer.removeAll(keepingCapacity: true)
    }
}
