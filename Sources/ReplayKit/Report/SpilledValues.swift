import Foundation

/// Plain values kept in order in a temporary file instead of memory, and read back in order:
/// memory holds at most one buffer of them, however many are appended. `Value` must be a plain
/// value (no references): its bytes are written as they are.
///
/// Not thread-safe: one owner on one thread. The file has no name (``UnlinkedTemporaryFile``):
/// it goes with this, or with the process however it ends.
final class SpilledValues<Value> {
    /// The values' bytes, each `MemoryLayout<Value>.size` of them, one after the other.
    private let bytes: SpilledBytes
    /// How many values were appended.
    private(set) var count = 0

    /// `name`: what the temporary file is made for (`replay-NAME-…`), named in errors;
    /// `flushBytes`: how many bytes are buffered before they are written (tests make it small).
    init(name: String, flushBytes: Int = 1 << 20) {
        precondition(_isPOD(Value.self) && MemoryLayout<Value>.size > 0, "spilled values are plain values")
        bytes = SpilledBytes(name: name, flushBytes: max(MemoryLayout<Value>.size, flushBytes))
    }

    /// Whether any value went to the file (rather than only the buffer).
    var spilled: Bool { bytes.spilled }

    /// Appends `value` after those appended.
    func append(_ value: Value) throws {
        _ = try withUnsafeBytes(of: value) { try bytes.append($0.prefix(MemoryLayout<Value>.size)) }
        count += 1
    }

    /// Hands out every value appended, in order.
    func forEach(_ body: (Value) throws -> Void) throws {
        let size = MemoryLayout<Value>.size
        try bytes.forEachChunk(of: size) { chunk in
            for start in stride(from: 0, to: chunk.count, by: size) { try body(chunk.loadUnaligned(fromByteOffset: start, as: Value.self)) }
        }
    }

    /// The `index`-th value appended (from 0).
    func value(at index: Int) throws -> Value {
        let size = MemoryLayout<Value>.size
        guard index >= 0, index < count else { throw SpillError.cutShort(bytes.name) }
        return try bytes.read(at: UInt64(index * size), count: size).withUnsafeBytes { $0.loadUnaligned(as: Value.self) }
    }
}
