import ReplayKit

/// Counts a command adds up over many journals: named, in the order first given.
struct Tally: Sendable, Equatable {
    private(set) var entries: [(name: String, count: Int)] = []

    init(_ entries: [(String, Int)] = []) {
        for (name, count) in entries { add(name, count) }
    }

    /// Adds `count` to `name` (appended when new).
    mutating func add(_ name: String, _ count: Int) {
        if let index = entries.firstIndex(where: { $0.name == name }) {
            entries[index].count += count
        } else {
            entries.append((name, count))
        }
    }

    /// Adds every count of `other`.
    mutating func add(_ other: Tally) {
        for entry in other.entries { add(entry.name, entry.count) }
    }

    static func == (lhs: Tally, rhs: Tally) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.name == $1.name && $0.count == $1.count }
    }
}
