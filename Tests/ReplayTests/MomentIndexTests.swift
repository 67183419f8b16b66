import Foundation
import Journal
import SDKCore
import Testing
@testable import ReplayKit

/// `replay serve`'s steps (previous/next call and switch) come from an index read segment by
/// segment as moments are asked for: every answer must be the one a pass over the whole
/// journal gives, at every sequence, in any order of asking, and the bounds the first and last
/// records'.
@Suite("moment index, segment by segment", .timeLimit(.minutes(1)))
struct MomentIndexTests {
    /// The stops and bounds of one pass over every record (the answers the index must give).
    private struct WholePass {
        var calls: [UInt64] = []
        var switches: [UInt64] = []
        var first: UInt64?
        var last: UInt64?

        init(_ reader: JournalReader) throws {
            let kinds: Set<UInt32> = [FactKind.switchRouted.rawValue, FactKind.switchStarted.rawValue, FactKind.switchLanded.rawValue]
            let cursor = try reader.records(mode: .salvage)
            while let view = try cursor.nextView() {
                if first == nil { first = view.sequence }
                last = view.sequence
                if view.kind == FactKind.callReceived.rawValue { calls.append(view.sequence) }
                if kinds.contains(view.kind) { switches.append(view.sequence) }
            }
        }

        func list(_ stop: MomentIndex.Stop) -> [UInt64] {
            switch stop {
            case .call: calls
            case .switch: switches
            }
        }
    }

    @Test("every step at every sequence is the whole pass's, asked forwards and backwards", arguments: ["demo", "multi-segment", "crash-mid-switch"])
    func sameAsWholePass(journal name: String) throws {
        let copy = try GoldenJournals.copy(name)
        defer { GoldenJournals.remove(copy) }
        let reader = try JournalReader(directory: copy)
        let whole = try WholePass(reader)
        let last = try #require(whole.last)
        for ascending in [true, false] {
            let index = try MomentIndex(reader)
            #expect(index.first == whole.first && index.last == whole.last)
            let sequences = Array(0...(last + 2))
            for sequence in ascending ? sequences : sequences.reversed() {
                for stop in MomentIndex.Stop.allCases {
                    let list = whole.list(stop)
                    #expect(try index.previous(stop, before: sequence) == list.last { $0 < sequence }, "\(name) \(stop) before \(sequence)")
                    #expect(try index.next(stop, after: sequence) == list.first { $0 > sequence }, "\(name) \(stop) after \(sequence)")
                }
            }
        }
        if name == "multi-segment" { #expect(reader.segments.count > 2) }
    }
}
