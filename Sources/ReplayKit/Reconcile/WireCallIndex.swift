import SDK

/// Which slot of the reconciler holds the call with a given wire id: a hash map from
/// ``WireCallID`` to a slot number, for the one lookup every receipt and every queued call makes.
///
/// One array of entries (id and slot side by side, so a lookup touches one cache line), open
/// addressing with linear probing, at most half full, and deletion by shifting the entries
/// after the removed one back (no tombstones: a fleet's streamed reconciliation removes as many
/// ids as it inserts). The ids come from outside input (receipt logs), so they are hashed with a
/// key drawn at random per map: a log cannot be made to pile its ids into one run of entries
/// without knowing it. Not thread-safe; never iterated, so its order never shows.
struct WireCallIndex {
    private struct Entry {
        var high: UInt64
        var low: UInt64
        /// The slot plus one; 0 for an empty entry.
        var slotPlusOne: Int
    }

    private var entries: [Entry]
    private var mask: Int
    private(set) var count = 0
    private let key: UInt64

    init() {
        entries = Array(repeating: Entry(high: 0, low: 0, slotPlusOne: 0), count: 64)
        mask = 63
        key = UInt64.random(in: .min ... .max)
    }

    /// The slot of the call `id`, nil when none is held; setting nil removes it.
    subscript(id: WireCallID) -> Int? {
        get {
            var position = home(id)
            while true {
                let entry = entries[position]
                if entry.slotPlusOne == 0 { return nil }
                if entry.low == id.low && entry.high == id.high { return entry.slotPlusOne - 1 }
                position = (position &+ 1) & mask
            }
        }
        set {
            if let newValue { insert(id, slot: newValue) } else { remove(id) }
        }
    }

    private func home(_ id: WireCallID) -> Int {
        var hash = (id.low ^ key) &+ (id.high &* 0x9E37_79B9_7F4A_7C15)
        hash = (hash ^ (hash >> 31)) &* 0xD6E8_FEB8_6659_FD93
        hash ^= hash >> 32
        return Int(truncatingIfNeeded: hash) & mask
    }

    private mutating func insert(_ id: WireCallID, slot: Int) {
        precondition(slot >= 0, "a slot number is not negative")
        var position = home(id)
        while true {
            let entry = entries[position]
            if entry.slotPlusOne == 0 { break }
            if entry.low == id.low && entry.high == id.high {
                entries[position].slotPlusOne = slot + 1
                return
            }
            position = (position &+ 1) & mask
        }
        entries[position] = Entry(high: id.high, low: id.low, slotPlusOne: slot + 1)
        count += 1
        if count * 2 > entries.count { grow() }
    }

    private mutating func remove(_ id: WireCallID) {
        var position = home(id)
        while true {
            let entry = entries[position]
            if entry.slotPlusOne == 0 { return }
            if entry.low == id.low && entry.high == id.high { break }
            position = (position &+ 1) & mask
        }
        count -= 1
        // Shift back each later entry of the run that may not stay where it is: one whose home
        // is not cyclically within (hole, next] would be cut off from its home by the hole.
        var hole = position
        var next = position
        while true {
            next = (next &+ 1) & mask
            let entry = entries[next]
            if entry.slotPlusOne == 0 { break }
            let wanted = home(WireCallID(high: entry.high, low: entry.low))
            let staysPut = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if staysPut { continue }
            entries[hole] = entry
            hole = next
        }
        entries[hole].slotPlusOne = 0
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(high: 0, low: 0, slotPlusOne: 0), count: old.count * 2)
        mask = entries.count - 1
        count = 0
        for entry in old where entry.slotPlusOne != 0 {
            insert(WireCallID(high: entry.high, low: entry.low), slot: entry.slotPlusOne - 1)
        }
    }
}
