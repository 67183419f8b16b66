import Journal

extension Timeline {
    /// A depth that changes over time: each change as (time, sequence, new value), in memory
    /// (``changes``), or, for a page's pass, in a temporary file (``SpilledValues``), so the
    /// pass's memory does not grow with the journal; ``forEach(_:)`` reads them alike.
    struct Counter {
        /// One change as the file keeps it.
        private struct Change {
            var time: Int64
            var sequence: UInt64
            var value: Int64
        }

        /// Every change, when they are kept in memory.
        private(set) var changes: [(time: JournalTime, sequence: UInt64, value: Int)] = []
        private let spilled: SpilledValues<Change>?
        /// How many changes there are.
        private(set) var count = 0
        /// The largest value (0 when none).
        private(set) var maximum = 0
        /// The last change's time.
        private(set) var lastTime: JournalTime?
        private var lastValue: Int?

        /// A counter keeping its changes in memory, or, `spilling`, in a temporary file named after `name`.
        init(spilling name: String? = nil) {
            spilled = name.map { SpilledValues<Change>(name: $0) }
        }

        mutating func record(_ value: Int, at time: JournalTime, sequence: UInt64) throws {
            if lastValue == value { return }
            if let spilled {
                try spilled.append(Change(time: time.microsecondsSince1970, sequence: sequence, value: Int64(value)))
            } else {
                changes.append((time, sequence, value))
            }
            maximum = count == 0 ? value : max(maximum, value)
            count += 1
            lastValue = value
            lastTime = time
        }

        /// Hands out every change's time and value, in order.
        func forEach(_ body: (JournalTime, Int) throws -> Void) throws {
            if let spilled {
                try spilled.forEach { try body(JournalTime(microsecondsSince1970: $0.time), Int($0.value)) }
            } else {
                for change in changes { try body(change.time, change.value) }
            }
        }
    }
}
