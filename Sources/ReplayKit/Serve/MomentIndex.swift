import Journal
import Locking
import SDK

/// Where a journal's public calls and switch moments are, by sequence number: what `replay
/// serve` steps between (previous/next call, previous/next switch).
///
/// Made segment by segment, as moments are asked for: the records' kinds of the segment that
/// holds a moment are read (without decoding them), then, only when that segment has no stop
/// before or after it, of its neighbours, one at a time. Opening the index reads the first
/// record and the last segment, so the first moment of a journal of any size is answered in
/// the time one segment takes, not a pass over the journal. Each segment read is kept (eight
/// bytes per call and per switch moment). Safe to use from several threads at once.
package final class MomentIndex: Sendable {
    /// What a step moves to.
    package enum Stop: String, CaseIterable, Sendable {
        /// A public call's `callReceived`.
        case call
        /// A switch's `switchRouted`, `switchStarted` or `switchLanded`.
        case `switch`
    }

    /// The stops of one segment's sequence range, in order.
    private struct SegmentStops: Sendable {
        var calls: [UInt64] = []
        var switches: [UInt64] = []
        var last: UInt64?

        func sequences(_ stop: Stop) -> [UInt64] {
            switch stop {
            case .call: calls
            case .switch: switches
            }
        }
    }

    /// The first and last records' sequence numbers (nil for an empty journal).
    package let first: UInt64?
    package let last: UInt64?
    private let reader: JournalReader
    /// Segment `i` holds the sequence numbers from `bases[i]` up to `bases[i + 1]`.
    private let bases: [UInt64]
    private let read: Locked<[Int: SegmentStops]>

    /// Opens the index of the journal `reader` reads (salvaging past corruption, as `info`
    /// counts): reads its first record and its last segment (or, when that holds no record,
    /// the one before, and so on).
    package init(_ reader: JournalReader) throws {
        let bases = reader.segments.map(\.baseSequence)
        var read: [Int: SegmentStops] = [:]
        let first = try reader.records(mode: .salvage).nextView()?.sequence
        var last: UInt64?
        if first != nil {
            for segment in bases.indices.reversed() {
                let stops = try Self.readStops(of: segment, reader: reader, bases: bases)
                read[segment] = stops
                if let found = stops.last { last = found; break }
            }
        }
        self.reader = reader
        self.bases = bases
        self.first = first
        self.last = last
        self.read = Locked(read)
    }

    /// The last `stop` before `sequence`.
    package func previous(_ stop: Stop, before sequence: UInt64) throws -> UInt64? {
        guard !bases.isEmpty else { return nil }
        var segment = segment(holding: sequence)
        while segment >= 0 {
            let list = try stops(ofSegment: segment).sequences(stop)
            let position = Self.firstIndex(in: list) { $0 >= sequence }
            if position > 0 { return list[position - 1] }
            segment -= 1
        }
        return nil
    }

    /// The first `stop` after `sequence`.
    package func next(_ stop: Stop, after sequence: UInt64) throws -> UInt64? {
        guard !bases.isEmpty else { return nil }
        var segment = segment(holding: sequence)
        while segment < bases.count {
            let list = try stops(ofSegment: segment).sequences(stop)
            let position = Self.firstIndex(in: list) { $0 > sequence }
            if position < list.count { return list[position] }
            segment += 1
        }
        return nil
    }

    /// The segment whose range holds `sequence` (the first one for a sequence before them all).
    private func segment(holding sequence: UInt64) -> Int {
        max(0, Self.firstIndex(in: bases) { $0 > sequence } - 1)
    }

    /// Segment `segment`'s stops: read once, then kept (two threads asking at once may both
    /// read it; they find the same).
    private func stops(ofSegment segment: Int) throws -> SegmentStops {
        if let known = read.withLock({ $0[segment] }) { return known }
        let stops = try Self.readStops(of: segment, reader: reader, bases: bases)
        read.withLock { $0[segment] = stops }
        return stops
    }

    /// The stops among the records of segment `segment`'s sequence range, from their kinds.
    private static func readStops(of segment: Int, reader: JournalReader, bases: [UInt64]) throws -> SegmentStops {
        let end = segment + 1 < bases.count ? bases[segment + 1] : nil
        var stops = SegmentStops()
        let cursor = try reader.records(from: bases[segment], mode: .salvage)
        while let view = try cursor.nextView() {
            if let end, view.sequence >= end { break }
            guard view.sequence >= bases[segment] else { continue }
            stops.last = view.sequence
            if view.kind == FactKind.callReceived.rawValue {
                stops.calls.append(view.sequence)
            } else if switchKinds.contains(view.kind) {
                stops.switches.append(view.sequence)
            }
        }
        return stops
    }

    private static let switchKinds: Set<UInt32> = [FactKind.switchRouted.rawValue, FactKind.switchStarted.rawValue, FactKind.switchLanded.rawValue]

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
