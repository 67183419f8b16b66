import SDK

/// Chooses the moments of a journal that get a state document in the report, within a byte
/// budget: every moment it is asked to keep (switch boundaries, warnings) while the budget
/// lasts, plus a bounded, evenly thinned sample of call marks. The others are left to
/// `replay state --at N`.
package struct StateSampler {
    /// The serialized documents may take at most this many bytes in all.
    let byteBudget: Int
    /// At most this many sampled call moments.
    let sampleLimit: Int
    private(set) var states: [UInt64: JSONValue] = [:]
    private(set) var skipped = 0
    private var bytes = 0
    private var sampled: [(ordinal: Int, sequence: UInt64, bytes: Int)] = []
    private var stride = 1

    init(byteBudget: Int = 2 << 20, sampleLimit: Int = 64) {
        self.byteBudget = byteBudget
        self.sampleLimit = sampleLimit
    }

    /// Keeps no state (and counts none as left out): for a page that asks for each moment's
    /// state when it is shown (`replay serve`'s).
    package static let none = StateSampler(byteBudget: 0, sampleLimit: 0)

    /// Keeps the state after `sequence` (a switch boundary, a warning), budget permitting.
    mutating func keep(_ state: SDKState, after sequence: UInt64) {
        guard byteBudget > 0 else { return }
        guard states[sequence] == nil, bytes < byteBudget else {
            if states[sequence] == nil { skipped += 1 }
            return
        }
        guard let (document, size) = documentWithinBudget(state) else { skipped += 1; return }
        states[sequence] = document
        bytes += size
    }

    /// Offers the state after the `ordinal`-th call mark (from 0): kept when it falls on the
    /// current stride; the stride doubles (dropping every other sample) when the sample is full.
    mutating func offer(_ state: @autoclosure () -> SDKState, call ordinal: Int, after sequence: UInt64) {
        guard sampleLimit > 0, ordinal % stride == 0, states[sequence] == nil else { return }
        while sampled.count >= sampleLimit {
            stride *= 2
            sampled.removeAll { sample in
                guard sample.ordinal % stride != 0 else { return false }
                states[sample.sequence] = nil
                bytes -= sample.bytes
                return true
            }
            guard ordinal % stride == 0 else { return }
        }
        guard let (document, size) = documentWithinBudget(state()) else { return }
        states[sequence] = document
        bytes += size
        sampled.append((ordinal, sequence, size))
    }

    /// The document of `state` and its serialized size, when it fits in what is left of the budget.
    private func documentWithinBudget(_ state: SDKState) -> (document: JSONValue, size: Int)? {
        // Near the budget most documents would be made only to be refused: one its lower bound
        // already rules out is not made.
        guard bytes + StateDocument.leastSerializedCount(state) <= byteBudget else { return nil }
        let document = StateDocument.make(state)
        let size = document.serialized().utf8.count
        return bytes + size <= byteBudget ? (document, size) : nil
    }
}
