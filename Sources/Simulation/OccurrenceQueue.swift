import Journal

/// The simulated world's pending occurrences, ordered by virtual time and, at equal times, by the
/// order they were scheduled (a binary min-heap).
struct OccurrenceQueue {
    private struct Entry {
        var due: JournalTime
        var order: UInt64
        var occurrence: WorldOccurrence

        func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : order < other.order
        }
    }

    private var heap: [Entry] = []
    private var nextOrder: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// When the earliest occurrence is due.
    var nextDue: JournalTime? { heap.first?.due }

    mutating func schedule(_ occurrence: WorldOccurrence, at due: JournalTime) {
        heap.append(Entry(due: due, order: nextOrder, occurrence: occurrence))
        nextOrder &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest occurrence if it is due at or before `time`.
    mutating func popDue(notAfter time: JournalTime) -> (due: JournalTime, occurrence: WorldOccurrence)? {
        guard let first = heap.first, first.due <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (first.due, first.occurrence)
    }
}
