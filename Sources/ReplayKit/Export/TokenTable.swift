import Foundation
import SDK

/// One kind's tokens, found by the UTF-8 bytes of their values: an open-addressing table over
/// one buffer of the values' bytes, so that a look-up hashes and compares bytes and makes no
/// string (a request body's values are looked up straight from its bytes).
///
/// Holds at most ``capacity`` values and is emptied when full; hashes with the process's
/// random seed (`Hasher`), so crafted values cannot make look-ups slow. Not thread-safe:
/// ``TokenMemo`` keeps its tables behind a lock.
struct TokenTable {
    private struct Entry {
        let hash: Int
        let start: Int
        let count: Int
        let token: String
    }

    let capacity: Int
    /// One more than the index of the entry each slot holds (0: empty); a power of two, at
    /// least twice ``capacity``, so that probes stay short.
    private var slots: [Int32]
    private var entries: [Entry] = []
    /// The values' bytes, one after another (each entry says where its value is).
    private var values: [UInt8] = []

    init(capacity: Int) {
        self.capacity = capacity
        var slotCount = 1
        while slotCount < capacity * 2 { slotCount *= 2 }
        slots = Array(repeating: 0, count: slotCount)
    }

    /// The hash a look-up and an insertion of `value` take.
    static func hash(of value: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(value))
        return hasher.finalize()
    }

    /// Calls `found` with the token of `value` (whose hash is `hash`) if the table holds one,
    /// and returns what it returned; nil when the table holds none.
    func withToken<Result>(for value: UnsafeBufferPointer<UInt8>, hash: Int, _ found: (String) -> Result) -> Result? {
        guard let index = index(of: value, hash: hash) else { return nil }
        return found(entries[index].token)
    }

    /// Remembers `token` for `value` (which the table does not hold yet), emptying the table
    /// first when it is full.
    mutating func insert(_ token: String, for value: UnsafeBufferPointer<UInt8>, hash: Int) {
        if entries.count >= capacity {
            entries.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            for slot in slots.indices { slots[slot] = 0 }
        }
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        entries.append(Entry(hash: hash, start: values.count, count: value.count, token: token))
        values.append(contentsOf: value)
        slots[slot] = Int32(entries.count)
    }

    private func index(of value: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
        let mask = slots.count - 1
        var slot = hash & mask
        return values.withUnsafeBufferPointer { stored in
            while true {
                let held = Int(slots[slot])
                guard held != 0 else { return nil }
                let entry = held - 1
                if entries[entry].hash == hash, entries[entry].count == value.count,
                   value.count == 0 || memcmp(stored.baseAddress! + entries[entry].start, value.baseAddress!, value.count) == 0 {
                    return entry
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
