/// Values by call id: the state's pending calls, each filed when a call is made and taken out
/// when it resolves. Laid out by ``CallTableSlots`` (open addressing, no entry moved by a removal),
/// with the values beside the slots, slot for slot.
///
/// Equality, like a dictionary's, does not depend on where entries lie or in which order they
/// were filed. Iteration visits every entry once, in no particular order.
package struct CallTable<Value> {
    private var slots = CallTableSlots()
    private var slotValues: [Value?] = Array(repeating: nil, count: CallTableSlots().capacity)

    /// An empty table.
    package init() {}

    /// The value filed for `call`, nil when none is; setting nil takes it out.
    package subscript(call: CallID) -> Value? {
        get {
            guard !isEmpty else { return nil }
            let (slot, found) = slots.place(of: call)
            return found ? slotValues[slot] : nil
        }
        set {
            if let newValue { insert(newValue, for: call) } else { remove(call) }
        }
    }

    /// Files `value` for `call`, replacing one filed for it.
    package mutating func insert(_ value: consuming Value, for call: CallID) {
        if slots.isCrowded { slots.rebuild(carrying: &slotValues) }
        let (slot, found) = slots.place(of: call)
        if !found { slots.fill(slot, with: call) }
        slotValues[slot] = value
    }

    /// Takes out and returns the value filed for `call`; nil when none is.
    @discardableResult
    package mutating func remove(_ call: CallID) -> Value? {
        guard let index = index(forKey: call) else { return nil }
        return remove(at: index).value
    }

    /// Where `call` is filed; nil when it is not. Valid until the table next changes.
    package func index(forKey call: CallID) -> Index? {
        guard !isEmpty else { return nil }
        let (slot, found) = slots.place(of: call)
        return found ? Index(slot: slot) : nil
    }

    /// Takes out the entry at `index` (from ``index(forKey:)``) and returns it.
    @discardableResult
    package mutating func remove(at index: Index) -> Element {
        let call = slots.id(at: index.slot)
        slots.vacate(index.slot)
        return (call, slotValues[index.slot].take()!)
    }

}

extension CallTable: Collection {
    package typealias Element = (key: CallID, value: Value)

    /// A filed entry's place in the table.
    package struct Index: Comparable, Sendable {
        fileprivate let slot: Int

        package static func < (lhs: Index, rhs: Index) -> Bool { lhs.slot < rhs.slot }
    }

    package var count: Int { slots.count }

    package var isEmpty: Bool { slots.count == 0 }

    package var startIndex: Index { Index(slot: slots.filled(from: 0)) }

    package var endIndex: Index { Index(slot: slots.capacity) }

    package func index(after index: Index) -> Index { Index(slot: slots.filled(from: index.slot + 1)) }

    package subscript(position: Index) -> Element {
        precondition(slots.isFilled(position.slot), "CallTable read at a slot with no entry")
        return (slots.id(at: position.slot), slotValues[position.slot]!)
    }

    /// The ids filed, in the table's order.
    package var keys: LazyMapCollection<CallTable, CallID> { lazy.map(\.key) }

    /// The values filed, in the table's order.
    package var values: LazyMapCollection<CallTable, Value> { lazy.map(\.value) }
}

extension CallTable: Equatable where Value: Equatable {
    /// The same ids with equal values, wherever they lie.
    package static func == (lhs: CallTable, rhs: CallTable) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { entry in rhs[entry.key] == entry.value }
    }
}

extension CallTable: Sendable where Value: Sendable {}

extension CallTable: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (CallID, Value)...) {
        self.init()
        for (call, value) in elements { insert(value, for: call) }
    }
}

extension CallTable: CustomStringConvertible {
    package var description: String {
        "[" + map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
