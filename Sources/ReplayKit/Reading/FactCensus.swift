import Journal
import SDK

/// How many records of each kind a journal holds, and of each public call.
package struct FactCensus {
    /// Kind names with their counts, in kind-number order (snapshots first).
    package private(set) var kinds: [(name: String, count: Int)] = []
    /// Public call names with their counts, by name.
    package private(set) var calls: [(name: String, count: Int)] = []
    /// Records whose payload could not be decoded.
    package private(set) var undecodable = 0

    package init() {}

    /// Counts every readable record of `reader` (salvaging past corruption, which `info`
    /// reports separately).
    package static func take(_ reader: JournalReader) -> FactCensus {
        var census = FactCensus()
        var kinds: [UInt32: Int] = [:]
        var calls: [String: Int] = [:]
        guard let cursor = try? reader.records(mode: .salvage) else { return census }
        while let view = try? cursor.nextView() {
            kinds[view.kind, default: 0] += 1
            if view.isSnapshot { continue }
            let record = RecordDecoder.decode(view, decoding: .withoutSnapshots)
            switch record.content {
            case .fact(.callReceived(let received)): calls[received.call.name.rawValue, default: 0] += 1
            case .unreadable: census.undecodable += 1
            // Every record is counted by kind above; only calls are counted by name too.
            case .fact, .snapshot: break
            }
        }
        census.kinds = kinds.keys.sorted().map { kind in
            let name = kind == SegmentFormat.snapshotKind ? "snapshot" : FactKind(rawValue: kind)?.name ?? "kind \(kind)"
            return (name, kinds[kind] ?? 0)
        }
        census.calls = calls.keys.sorted().map { ($0, calls[$0] ?? 0) }
        return census
    }
}
