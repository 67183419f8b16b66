/// The heads of many time-ordered streams (journals, receipt logs), earliest first: a binary
/// heap of each stream's index and the time of its next item, ties going to the lower index.
/// Finding the next item to read across n streams takes O(log n), not a pass over all of them.
struct EarliestFirst {
    private var entries: [(time: Int64, index: Int)] = []

    /// The stream whose next item comes first, and that item's time.
    var first: (time: Int64, index: Int)? { entries.first }

    /// Adds stream `index`, whose next item is at `time`.
    mutating func insert(time: Int64, index: Int) {
        entries.append((time, index))
        siftUp(from: entries.count - 1)
    }

    /// The first stream read its item: its next one is at `time`.
    mutating func replaceFirst(time: Int64) {
        entries[0].time = time
        siftDown(from: 0)
    }

    /// The first stream has no item left.
    mutating func removeFirst() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown(from: 0)
    }

    private static func precedes(_ lhs: (time: Int64, index: Int), _ rhs: (time: Int64, index: Int)) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : lhs.index < rhs.index
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            var first = parent
            for child in [2 * parent + 1, 2 * parent + 2] where child < entries.count && Self.precedes(entries[child], entries[first]) {
                first = child
            }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }
}
