import SDKCore

/// Each pending call's completion, by call id: filed when the call reaches the engine, taken
/// out when it resolves, once each per call.
///
/// Open addressing over power-of-two arrays, probed linearly from the id's hash: the ids and
/// their slots' states in arrays of their own (a probe reads only plain words, retaining
/// nothing), the completions beside them. A removed entry leaves a marker that later insertions
/// reuse and probes step over, so a removal moves nothing; the markers go when the table
/// empties. Once three quarters of its slots are taken, it is rebuilt without markers, with
/// room for four times its entries. Against a
/// `Dictionary`, whose generic probing and the shifting of entries a removal makes cost about
/// 500 instructions per call here (`bench sdk --callgrind`).
struct CompletionTable: Sendable {
    private enum SlotState: UInt8, Sendable {
        case empty, full, removed
    }

    private var states: [SlotState]
    private var ids: [CallID]
    private var completions: [CallCompletion?]
    /// The completions filed.
    private(set) var count = 0
    /// Slots taken: entries and removal markers.
    private var taken = 0

    init() {
        self.init(capacity: 16)
    }

    private init(capacity: Int) {
        states = Array(repeating: .empty, count: capacity)
        ids = Array(repeating: CallID(high: 0, low: 0), count: capacity)
        completions = Array(repeating: nil, count: capacity)
    }

    /// Files `completion` for `call`, replacing one filed for it.
    mutating func insert(_ completion: consuming CallCompletion, for call: CallID) {
        if (taken + 1) * 4 > states.count * 3 { rebuild() }
        let (index, found) = place(of: call)
        if !found {
            if states[index] == .empty { taken += 1 }
            count += 1
            states[index] = .full
            ids[index] = call
        }
        completions[index] = completion
    }

    /// Takes out and returns the completion filed for `call`; nil when none is.
    mutating func remove(_ call: CallID) -> CallCompletion? {
        guard count > 0 else { return nil }
        let (index, found) = place(of: call)
        guard found else { return nil }
        states[index] = .removed
        count -= 1
        let completion = completions[index].take()
        // Empty again (every call of a burst resolved, the common case): the markers go, so
        // the next burst finds free slots and never pays for a rebuild.
        if count == 0 {
            states.withUnsafeMutableBufferPointer { $0.update(repeating: .empty) }
            taken = 0
        }
        return completion
    }

    /// Where `call` is filed (`found`), or else the slot it would go in: the first marker on
    /// its probe, else the empty slot that ends it.
    private func place(of call: CallID) -> (index: Int, found: Bool) {
        states.withUnsafeBufferPointer { states in
            ids.withUnsafeBufferPointer { ids in
                let mask = states.count - 1
                var index = call.tableHash & mask
                var marker: Int?
                while true {
                    switch states[index] {
                    case .empty: return (marker ?? index, false)
                    case .removed: if marker == nil { marker = index }
                    case .full: if ids[index] == call { return (index, true) }
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    /// Moves every entry into tables with room for four times the entries (at least as large as
    /// now): the next rebuild is then at least twice as many insertions away as there are
    /// entries, so each insertion pays for a few slots' worth of rebuilding at most.
    private mutating func rebuild() {
        var capacity = states.count
        while capacity < count * 4 { capacity *= 2 }
        var old = CompletionTable(capacity: capacity)
        swap(&old, &self)
        for index in old.states.indices where old.states[index] == .full {
            if let completion = old.completions[index].take() { insert(completion, for: old.ids[index]) }
        }
    }
}
