/// An array that also gives up its first element in constant time (amortized): appends at the
/// back, removals mostly from the front, as a switch's gate holds calls and replays them in
/// arrival order. `Array.removeFirst()` moves every element left; this moves its start instead,
/// and compacts the storage once the unused front outgrows the rest.
///
/// Indices are offsets from the first element, `0..<count`, as an array's are.
package struct FIFO<Element> {
    private var storage: [Element]
    /// Where the first element is in `storage`.
    private var head = 0

    package init() {
        storage = []
    }

    package init(_ elements: some Sequence<Element>) {
        storage = Array(elements)
    }

    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the first element, which must exist.
    @discardableResult
    package mutating func removeFirst() -> Element {
        precondition(head < storage.count, "removeFirst() on an empty FIFO")
        let first = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return first
    }

    /// Removes and returns the element at `index` (the first in constant time, any other by
    /// moving those after it).
    @discardableResult
    package mutating func remove(at index: Int) -> Element {
        precondition(indices.contains(index), "index out of range")
        if index == 0 { return removeFirst() }
        return storage.remove(at: head + index)
    }
}

extension FIFO: RandomAccessCollection, MutableCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { storage.count - head }
    /// Constant time, in every module: the default, `distance(from:to:)`, is generic, and from
    /// outside SDKCore it runs unspecialized, walking the indices with metadata look-ups.
    package var count: Int { storage.count - head }
    package var isEmpty: Bool { storage.count == head }

    package subscript(position: Int) -> Element {
        get {
            precondition(indices.contains(position), "index out of range")
            return storage[head + position]
        }
        set {
            precondition(indices.contains(position), "index out of range")
            storage[head + position] = newValue
        }
    }
}

extension FIFO: ExpressibleByArrayLiteral {
    package init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension FIFO: Equatable where Element: Equatable {
    package static func == (lhs: FIFO, rhs: FIFO) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

extension FIFO: Sendable where Element: Sendable {}
