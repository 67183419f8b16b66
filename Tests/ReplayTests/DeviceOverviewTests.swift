import Foundation
import Journal
@testable import ReplayKit
import SDK
import Testing

/// The device page's picture: every fact counted once in its lane whatever the span, the
/// bars' span widening to fit the device's time, each bar linking to its first fact.
@Suite("The device page's overview")
struct DeviceOverviewTests {
    private static func record(_ sequence: UInt64, at microseconds: Int64, kind: UInt32 = 999) -> DecodedRecord {
        DecodedRecord(sequence: sequence, time: JournalTime(microsecondsSince1970: microseconds), kind: kind, payloadBytes: 0,
                      content: kind == 999 ? .unreadable("damaged") : .fact(.unknown(kind: kind, payload: [])))
    }

    /// Each bar's fact count, read back from its tooltip, by lane.
    private static func counts(_ svg: String, roles: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for title in svg.components(separatedBy: "<title>").dropFirst() {
            let words = title.split(separator: " ")
            guard words.count > 1, let count = Int(words[1]) else { continue }
            counts[String(words[0].dropLast()), default: 0] += count
        }
        return counts
    }

    @Test("facts over an hour, a microsecond apart at first: all counted, the span widened to fit")
    func widensToFit() {
        var overview = DeviceOverview(roles: ["app", "widget"])
        let start: Int64 = 1_800_000_000_000_000
        var sequences: [UInt64] = [0, 0]
        for step in 0..<5_000 {
            let lane = step % 3 == 0 ? 1 : 0
            sequences[lane] += 1
            let time = start + (step < 100 ? Int64(step) : Int64(step) * 720_000)
            overview.add(lane: lane, record: Self.record(sequences[lane], at: time, kind: step % 2 == 0 ? 999 : FactKind.callReceived.rawValue))
        }
        let svg = overview.svg { lane in lane == 0 ? "app.html" : "widget.html" }
        #expect(Self.counts(svg, roles: ["app", "widget"]) == ["app": Int(sequences[0]), "widget": Int(sequences[1])])
        // 5,000 steps of 0.72 s: an hour across at most `bucketCount` bars.
        let span = Int64(4_999) * 720_000
        #expect(overview.bucketSpan * Int64(DeviceOverview.bucketCount) > span && overview.bucketSpan * Int64(DeviceOverview.bucketCount) <= 2 * span + 2)
        #expect(svg.contains("<a href=\"app.html#seq=1\">") && svg.contains("<a href=\"widget.html#seq=1\">"))
        #expect(svg.contains("fill=\"#333333\"") && svg.contains("fill=\"#4e79a7\""), "unreadable and input parts both drawn")
    }

    @Test("a record from before the first, or a clock far ahead: still counted, nothing traps")
    func outOfOrderAndFarAhead() {
        var overview = DeviceOverview(roles: ["app"])
        overview.add(lane: 0, record: Self.record(1, at: 1_000_000))
        overview.add(lane: 0, record: Self.record(2, at: 10))
        overview.add(lane: 0, record: Self.record(3, at: .max))
        overview.add(lane: 0, record: Self.record(4, at: .min))
        #expect(Self.counts(overview.svg { _ in "p" }, roles: ["app"]) == ["app": 4])
    }

    @Test("no facts: an empty picture that says so")
    func empty() {
        let svg = DeviceOverview(roles: ["app"]).svg { _ in "p" }
        #expect(svg.contains("no facts") && !svg.contains("<rect"))
    }
}
