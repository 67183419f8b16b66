import Journal
import SDK

/// Where a journal's public calls and switch moments are, by sequence number: what `replay
/// serve` steps between (previous/next call, previous/next switch). Made by one pass over the
/// records' kinds, without decoding them; eight bytes per call and per switch moment.
package struct MomentIndex: Sendable {
    /// What a step moves to.
    package enum Stop: String, CaseIterable, Sendable {
        /// A public call's `callReceived`.
        case call
        /// A switch's `switchRouted`, `switchStarted` or `switchLanded`.
        case `switch`
    }

    /// The first and last records' sequence numbers (nil for an empty journal).
    package private(set) var first: UInt64?
    package private(set) var last: UInt64?
    package private(set) var calls: [UInt64] = []
    package private(set) var switches: [UInt64] = []

    package init() {}

    /// Reads every record's kind (salvaging past corruption, as `info` counts).
    package static func build(_ reader: JournalReader) throws -> MomentIndex {
        var index = MomentIndex()
        let cursor = try reader.records(mode: .salvage)
        let switchKinds: Set<UInt32> = [FactKind.switchRouted.rawValue, FactKind.switchStarted.rawValue, FactKind.switchLanded.rawValue]
        while let view = try cursor.nextView() {
            if index.first == nil { index.first = view.sequence }
            index.last = view.sequence
            if view.kind == FactKind.callReceived.rawValue {
                index.calls.append(view.sequence)
            } else if switchKinds.contains(view.kind) {
                index.switches.append(view.sequence)
            }
        }
        return index
    }

    private func sequences(_ stop: Stop) -> [UInt64] {
        switch stop {
        case .call: calls
        case .switch: switches
        }
    }

    /// The last `stop` before `sequence`.
    package func previous(_ stop: Stop, before sequence: UInt64) -> UInt64? {
        let list = sequences(stop)
        let position = Self.firstIndex(in: list) { $0 >= sequence }
        return position > 0 ? list[position - 1] : nil
    }

    /// The first `stop` after `sequence`.
    package func next(_ stop: Stop, after sequence: UInt64) -> UInt64? {
        let list = sequences(stop)
        let position = Self.firstIndex(in: list) { $0 > sequence }
        return position < list.count ? list[position] : nil
    }

    /// The first index of sorted `list` where `isPast` holds (binary search).
    private static func firstIndex(in list: [UInt64], where isPast: (UInt64) -> Bool) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(list[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
