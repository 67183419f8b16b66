import Foundation

/// Calls a streamed reconciliation judged agreed and let go, kept in order in a temporary file
/// (each call's bytes, then its receipts') instead of memory, and read back when the rows are
/// listed. `Call` must be a plain value (no references): its bytes are written as they are.
///
/// Not thread-safe: one reconciliation on one thread. The file has no name
/// (``UnlinkedTemporaryFile``): it goes with this, or with the process however it ends.
final class SpilledCalls<Call> {
    typealias Receipt = JournalReconciler.Receipt

    private var file: UnlinkedTemporaryFile?
    private var buffer: [UInt8] = []
    /// How many calls were written, and which of them were taken back (``take(_:body:)``).
    private(set) var count = 0
    private var taken: Set<Int> = []
    private static var flushBytes: Int { 1 << 20 }

    init() {
        precondition(_isPOD(Call.self) && _isPOD(Receipt.self), "spilled calls are plain values")
    }

    /// Writes `call` and its receipts after those written.
    /// Appends `call` with its one receipt, or none: no array made for it.
    func append(_ call: Call, receipt: Receipt?) {
        withUnsafeBytes(of: call) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(receipt == nil ? 0 : 1)) { buffer.append(contentsOf: $0) }
        if let receipt { withUnsafeBytes(of: receipt) { buffer.append(contentsOf: $0) } }
        count += 1
        if buffer.count >= Self.flushBytes { flush() }
    }

    func append(_ call: Call, receipts: [Receipt]) {
        withUnsafeBytes(of: call) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(receipts.count)) { buffer.append(contentsOf: $0) }
        for receipt in receipts { withUnsafeBytes(of: receipt) { buffer.append(contentsOf: $0) } }
        count += 1
        if buffer.count >= Self.flushBytes { flush() }
    }

    /// Hands out each call written and not taken back, in order, with its receipts.
    func forEach(_ body: (Call, [Receipt]) -> Void) {
        read { ordinal, call, receipts in
            if !taken.contains(ordinal) { body(call, receipts) }
        }
    }

    /// Takes back the calls `wanted` says yes to (they are no longer handed out), handing
    /// each with its receipts to `body`.
    func take(where wanted: (Call) -> Bool, body: (Call, [Receipt]) -> Void) {
        guard count > taken.count else { return }
        read { ordinal, call, receipts in
            guard !taken.contains(ordinal), wanted(call) else { return }
            taken.insert(ordinal)
            body(call, receipts)
        }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        do {
            let file = try self.file ?? UnlinkedTemporaryFile(label: "reconcile-calls")
            self.file = file
            try buffer.withUnsafeBytes { try file.append($0) }
            buffer.removeAll(keepingCapacity: true)
        } catch {
            preconditionFailure("replay reconcile: the temporary file of agreed calls cannot be written: \(error)")
        }
    }

    /// Reads every call written, in order: the file's, then what is still buffered.
    private func read(_ body: (Int, Call, [Receipt]) -> Void) {
        var ordinal = 0
        var pending: [UInt8] = []
        func parse(_ bytes: inout [UInt8], final: Bool) {
            var offset = 0
            let callSize = MemoryLayout<Call>.size, receiptSize = MemoryLayout<Receipt>.size
            bytes.withUnsafeBytes { raw in
                while raw.count - offset >= callSize + 4 {
                    let count = Int(raw.loadUnaligned(fromByteOffset: offset + callSize, as: UInt32.self))
                    let size = callSize + 4 + count * receiptSize
                    guard raw.count - offset >= size else { break }
                    let call = Self.load(Call.self, from: raw.baseAddress! + offset)
                    var receipts: [Receipt] = []
                    receipts.reserveCapacity(count)
                    for index in 0..<count {
                        receipts.append(Self.load(Receipt.self, from: raw.baseAddress! + offset + callSize + 4 + index * receiptSize))
                    }
                    body(ordinal, call, receipts)
                    ordinal += 1
                    offset += size
                }
            }
            bytes.removeFirst(offset)
            precondition(!final || bytes.isEmpty, "replay reconcile: the temporary file of agreed calls is cut short")
        }
        if let file {
            var chunk = [UInt8](repeating: 0, count: Self.flushBytes)
            var offset: UInt64 = 0
            while offset < file.size {
                let got: Int
                do {
                    got = try chunk.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
                } catch {
                    preconditionFailure("replay reconcile: the temporary file of agreed calls cannot be read: \(error)")
                }
                guard got > 0 else { break }
                pending.append(contentsOf: chunk[..<got])
                offset += UInt64(got)
                parse(&pending, final: false)
            }
        }
        pending.append(contentsOf: buffer)
        parse(&pending, final: true)
    }

    /// A plain value from bytes at any alignment.
    private static func load<Value>(_ type: Value.Type, from source: UnsafeRawPointer) -> Value {
        source.loadUnaligned(as: Value.self)
    }
}
