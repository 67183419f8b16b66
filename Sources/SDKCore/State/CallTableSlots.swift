/// Where entries keyed by call id lie in a table of values kept beside it (``CallTable``, the
/// engine's completions): slots probed linearly from the id's ``CallID/tableHash`` over
/// power-of-two arrays of the slots' states and ids (a probe reads only plain words, retaining
/// nothing). The table keeps its values in an array of the same length, slot for slot.
///
/// A removal leaves a marker that later insertions reuse and probes step over, so it moves
/// nothing; the markers go when the table empties. Once three quarters of the slots are taken
/// (``isCrowded``), the owner rebuilds (``rebuild(carrying:)``): slots without markers, with
/// room for four times the entries, its values moved along. Not a `Dictionary`: each call
/// inserts and removes its completion and its pending call, and a `Dictionary` pays for each with
/// generic probing and the shifting of entries a removal makes.
package struct CallTableSlots: Sendable {
    private enum State: UInt8, Sendable {
        case empty, full, removed
    }

    private var states: [State]
    private var ids: [CallID]
    /// The entries filed.
    package private(set) var count = 0
    /// Slots taken: entries and removal markers.
    private var taken = 0

    /// Empty slots, `capacity` of them (a power of two).
    package init(capacity: Int = 16) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "a power of two")
        states = Array(repeating: .empty, count: capacity)
        ids = Array(repeating: CallID(high: 0, low: 0), count: capacity)
    }

    /// The number of slots: the length of the values' array beside them.
    package var capacity: Int { states.count }

    /// Whether one more entry must wait for ``rebuild(carrying:)``.
    package var isCrowded: Bool { (taken + 1) * 4 > states.count * 3 }

    /// Where `call` is filed (`found`), or else the slot it would go in: the first marker on
    /// its probe, else the empty slot that ends it.
    package func place(of call: CallID) -> (slot: Int, found: Bool) {
        states.withUnsafeBufferPointer { states in
            ids.withUnsafeBufferPointer { ids in
                let mask = states.count - 1
                var slot = call.tableHash & mask
                var marker: Int?
                while true {
                    switch states[slot] {
                    case .empty: return (marker ?? slot, false)
                    case .removed: if marker == nil { marker = slot }
                    case .full: if ids[slot] == call { return (slot, true) }
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// Files `call` at `slot`, which ``place(of:)`` gave for it, not found.
    package mutating func fill(_ slot: Int, with call: CallID) {
        if states[slot] == .empty { taken += 1 }
        count += 1
        states[slot] = .full
        ids[slot] = call
    }

    /// Takes the entry at the filled `slot` out. When that empties the table (every call of a
    /// burst resolved, the common case), the markers go, so the next burst finds free slots and
    /// never pays for a rebuild.
    package mutating func vacate(_ slot: Int) {
        precondition(states[slot] == .full, "a slot with no entry vacated")
        states[slot] = .removed
        count -= 1
        if count == 0 {
            states.withUnsafeMutableBufferPointer { $0.update(repeating: .empty) }
            taken = 0
        }
    }

    /// Whether `slot` holds an entry.
    package func isFilled(_ slot: Int) -> Bool {
        states[slot] == .full
    }

    /// The id filed at the filled `slot`.
    package func id(at slot: Int) -> CallID {
        ids[slot]
    }

    /// The first slot from `slot` on that holds an entry; ``capacity`` when none does.
    package func filled(from slot: Int) -> Int {
        var slot = slot
        while slot < states.count, states[slot] != .full { slot += 1 }
        return slot
    }

    /// The number of slots a rebuild makes: room for four times the entries, at least as many
    /// as now.
    private var rebuiltCapacity: Int {
        var capacity = states.count
        while capacity < count * 4 { capacity *= 2 }
        return capacity
    }

    /// Lays the same entries out in ``rebuiltCapacity`` slots without markers, moving each
    /// one's value in `values` (the owner's array, slot for slot) along with it. The next
    /// rebuild is then at least twice as many insertions away as there are entries, so each
    /// insertion pays for a few slots' worth of rebuilding at most.
    package mutating func rebuild<Value>(carrying values: inout [Value?]) {
        var rebuilt = CallTableSlots(capacity: rebuiltCapacity)
        var moved = [Value?](repeating: nil, count: rebuilt.capacity)
        for slot in states.indices where states[slot] == .full {
            let (to, _) = rebuilt.place(of: ids[slot])
            rebuilt.fill(to, with: ids[slot])
            moved[to] = values[slot].take()
        }
        self = rebuilt
        values = moved
    }
}
