import Foundation
import Testing

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
}
