import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// A long SDK journal's report stays small: ordinary calls fold into buckets, every call is
/// accounted for, and the page stays under 10 MB. `REPORT_SCALE_CALLS` sets the number of
/// calls (default 4,000, past the mark limit); `REPORT_SCALE_KEEP=DIR` keeps the journal and
/// the page there, for the measurement in docs/BENCHMARKS.md.
@Suite("report of a long journal", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct ReportScaleTests {
    @Test("ordinary calls fold into buckets, none is lost, and the page stays under 10 MB", .timeLimit(.minutes(30)))
    func longJournal() async throws {
        let environment = ProcessInfo.processInfo.environment
        let calls = environment["REPORT_SCALE_CALLS"].flatMap(Int.init) ?? 4_000
        let keep = environment["REPORT_SCALE_KEEP"]
        let directory = keep ?? ReplayHarness.temporaryDirectory()
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: directory) } }
        try? FileManager.default.removeItem(atPath: directory + "/journal")
        try await LongSDKJournal.make(directory: directory, calls: calls, switchEvery: max(500, calls / 200))
        let output = directory + "/report.html"
        let run = ReplayHarness.run(["report", "-o", output, directory + "/journal"])
        #expect(run.status == 0, "\(run.error)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        #expect(size < 10_000_000, "the page is \(size) bytes")
        let data = try ReportTests.embeddedData(try String(contentsOfFile: output, encoding: .utf8))
        let marks = (data["marks"] as? [Any])?.count ?? 0
        let folded = data["folded"] as? Int ?? 0
        let buckets = (data["buckets"] as? [[String: Any]]) ?? []
        #expect(data["calls"] as? Int ?? 0 >= calls, "every call made, plus initialize, setEmail and switches")
        #expect(marks + folded == data["calls"] as? Int)
        #expect((data["marks"] as? [[String: Any]])?.allSatisfy { $0["fact"] is [String: Any] } == true, "every mark has its fact")
        #expect(folded > 0 && buckets.compactMap { $0["count"] as? Int }.reduce(0, +) == folded)
        #expect((data["lanes"] as? [[String: Any]])?.compactMap { $0["label"] as? String } == ["US", "EU"])
        print("report-scale: \(calls) calls, \(run.out.trimmingCharacters(in: .newlines))")
    }

    @Test("a page's pass keeps whole only the calls it may draw, and its data is that of every call kept", .timeLimit(.minutes(10)))
    func pageKeepsWhatItDraws() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await LongSDKJournal.make(directory: directory, calls: 7_000, switchEvery: 400)
        let journal = directory + "/journal"
        let every = try TimelineBuilder.build(reader: try JournalReader(directory: journal), keeping: .every)
        let page = try TimelineBuilder.build(reader: try JournalReader(directory: journal), keeping: .page(nil))
        #expect(every.callCount == every.calls.count && page.callCount == every.callCount && page.callCount > MarkBuckets.markLimit)
        let notable = try #require(page.pageCalls?.notable.count)
        #expect(notable > 0, "calls held past the mark limit are kept as notable")
        #expect(page.calls.count < every.calls.count / 2, "past the limit, whole calls are only those resolved before their receipt")
        #expect(try ReportData.make(page).serialized() == ReportData.make(every).serialized())
        // Calls a picker (as `--received` does) makes notable are kept past the limit too.
        let picked: (CallID) -> Bool = { $0.description.hasSuffix("3") }
        let pickedPage = try TimelineBuilder.build(reader: try JournalReader(directory: journal), keeping: .page(notable: picked))
        #expect(try #require(pickedPage.pageCalls?.notable.count) > notable)
        let lane: (ProjectFingerprint?) -> Int = { $0 == nil ? 0 : 1 }
        let fromEvery = try MarkBuckets(every, lane: lane, notable: picked)
        let fromPage = try MarkBuckets(pickedPage, lane: lane, notable: picked)
        #expect(fromPage.marks.map { pickedPage.call(of: $0) } == fromEvery.marks.map { every.call(of: $0) })
        #expect(fromPage.marks.contains { picked(pickedPage.call(of: $0)) && !pickedPage.isNotableOnItsOwn($0) })
        #expect(fromPage.folded == fromEvery.folded && fromPage.bucketSpan == fromEvery.bucketSpan)
        #expect(fromPage.buckets.map { "\($0.lane) \($0.slot) \($0.count) \($0.firstSequence) \($0.lastSequence) \($0.statuses.sorted { $0.key < $1.key })" }
                == fromEvery.buckets.map { "\($0.lane) \($0.slot) \($0.count) \($0.firstSequence) \($0.lastSequence) \($0.statuses.sorted { $0.key < $1.key })" })
    }

    @Test("receipt marks past the limit are counted, and only the calls of those embedded are read again from the journal",
          .timeLimit(.minutes(10)))
    func receiptMarksPastTheLimit() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await LongSDKJournal.make(directory: directory, calls: 3_500, switchEvery: 400)
        let journal = directory + "/journal"
        // No receipt log: every call sent is lost, each a receipt mark of its own.
        let reconciler = JournalReconciler()
        try reconciler.addJournal(path: journal, reader: try JournalReader(directory: journal))
        let received = try #require(ReceivedCalls.perJournal(reconciler).first)
        func page() throws -> Timeline { try TimelineBuilder.build(reader: try JournalReader(directory: journal), keeping: .page(received)) }
        func receiptMarks(_ data: JSONValue) throws -> JSONProbe {
            try #require(JSONProbe(parsing: data.serialized()))["received"]
        }
        let whole = try page()
        let all = try receiptMarks(try ReportData.make(whole, received: received, receiptMarkLimit: .max))
        let total = all["marks"].array.count
        #expect(total > MarkBuckets.markLimit && all["marks_left_out"].int == 0)
        #expect(all["marks"].array.allSatisfy { $0["text"].string?.hasPrefix("lost: ") == true && $0["missing"].bool == true })

        let limited = try page()
        func readAgain(_ body: () throws -> Void) throws -> Int {
            let before = try #require(limited.pageCalls?.recordsReadAgain)
            try body()
            return try #require(limited.pageCalls?.recordsReadAgain) - before
        }
        let limit = 40
        let forMarks = try readAgain { _ = try ReportData.make(limited, received: received, receiptMarkLimit: 0) }
        var some = JSONProbe(nil)
        let forBoth = try readAgain { some = try receiptMarks(try ReportData.make(limited, received: received, receiptMarkLimit: limit)) }
        #expect(some["marks"].array.count == limit && some["marks_left_out"].int == total - limit)
        #expect(some["marks"].array.map { $0["text"].string } == all["marks"].array.prefix(limit).map { $0["text"].string })
        let split = try MarkBuckets(limited, lane: { _ in 0 }, notable: received.marksOnItsOwn)
        let drawnNotable = split.marks.filter { if case .notable = $0 { true } else { false } }.count
        #expect(forMarks == drawnNotable, "without receipt marks, only the notable calls drawn are read again")
        let readAgain = forBoth - forMarks
        #expect(readAgain <= limit, "\(readAgain) records read again for \(limit) receipt marks")
    }
}
