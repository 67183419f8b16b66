import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `replay report`: the data the page embeds (golden, for the demo journal), the page's
/// self-containment, and the folding that keeps long journals' pages small.
@Suite("HTML report", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct ReportTests {
    /// The `<script id="report-data">` of a report page, parsed.
    static func embeddedData(_ html: String) throws -> [String: Any] {
        let open = #"<script id="report-data" type="application/json">"#
        let start = try #require(html.range(of: open))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let text = String(html[start.upperBound..<end.lowerBound])
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func demoReport() async throws -> (html: String, journal: String) {
        let journal = await DemoFixture.shared.journal().journal
        let output = ReplayHarness.temporaryDirectory() + "/report.html"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let run = ReplayHarness.run(["report", "-o", output, journal])
        #expect(run.status == 0, "\(run.error)")
        return (try String(contentsOfFile: output, encoding: .utf8), journal)
    }

    @Test("the demo's report data: two labelled lanes, three switch requests, the noisy step and its warning", .timeLimit(.minutes(1)))
    func demoData() async throws {
        let (html, journal) = try await demoReport()
        let data = try Self.embeddedData(html)
        let lanes = try #require(data["lanes"] as? [[String: Any]])
        #expect(lanes.compactMap { $0["label"] as? String } == ["US", "EU"])
        #expect(lanes.count == 3, "two projects and the not-delivered lane")
        let switches = try #require(data["switches"] as? [[String: Any]])
        #expect(switches.count == 3)
        #expect(switches.compactMap { ($0["steps"] as? [Any])?.count } == [8, 0, 8])
        let warnings = try #require(data["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["kind"] as? String } == ["noisy step", "switchedWithWarnings"])
        #expect(data["folded"] as? Int == 0)
        #expect((data["marks"] as? [Any])?.count == data["calls"] as? Int)
        #expect((data["marks"] as? [[String: Any]])?.allSatisfy { ($0["fact"] as? [String: Any])?["kind"] as? String == "callReceived" } == true)
        // Every switch boundary has its state, the same document `replay state --at` prints.
        let states = try #require(data["states"] as? [String: Any])
        for window in switches {
            for key in ["started", "landed"] {
                guard let seq = (window[key] as? [String: Any])?["seq"] as? Int, window["routing"] as? String == "started" else { continue }
                let state = try #require(states[String(seq)] as? [String: Any], "no state after seq \(seq)")
                let printed = ReplayHarness.run(["state", "--json", "--at", String(seq), journal])
                let document = try #require(try JSONSerialization.jsonObject(with: Data(printed.out.utf8)) as? [String: Any])
                #expect(NSDictionary(dictionary: state).isEqual(to: document["state"] as? [String: Any] ?? [:]))
            }
        }
        let pretty = try JSONSerialization.data(withJSONObject: data, options: [.prettyPrinted, .sortedKeys])
        // The calling thread's id differs between runs (Golden's own rule is for compact JSON).
        let text = String(decoding: pretty, as: UTF8.self)
            .replacingOccurrences(of: #""caller" : [0-9]+"#, with: #""caller" : 0"#, options: .regularExpression)
        Golden.expect(text + "\n", matches: "report-data.json", journal: journal)
    }

    @Test("the page loads nothing: no external script, style, image or font", .timeLimit(.minutes(1)))
    func selfContained() async throws {
        let (html, _) = try await demoReport()
        for needle in ["<script src", "<link", "src=\"http", "@import", "href=\"http"] {
            #expect(!html.contains(needle), "the page refers to \(needle)")
        }
        // `url(` only for the page's own fragments (the SVG clip path).
        #expect(html.range(of: #"url\((?!#)"#, options: .regularExpression) == nil, "the page refers to an outside url(...)")
        #expect(html.components(separatedBy: "</script>").count == 3, "exactly two script elements")
    }

    @Test("data that holds </script> cannot end the data element early")
    func embeddingIsSafe() throws {
        let page = ReportPage.html(data: .object([("text", .string("</script><script>alert(1)</script><!--"))]), title: "<t>")
        #expect(page.components(separatedBy: "</script>").count == 3)
        let data = try Self.embeddedData(page)
        #expect(data["text"] as? String == "</script><script>alert(1)</script><!--")
        #expect(page.contains("replay report: &lt;t&gt;"))
    }

    @Test("the embedded data is the JSON with every </ and <!-- escaped, and nothing else changed")
    func embeddingChangesOnlyWhatItMust() {
        let texts = ["", "<", "</", "<!", "<!-", "<!--", "<<!--", "<</", "<!--</!--", "a</b<!--c<<!--<//<!-<-", "é</ü<!--😀<", String(repeating: "</", count: 3)]
        for text in texts {
            let data = JSONValue.object([("text", .string(text)), ("tail", .string(text + "<"))])
            let expected = data.serialized().replacingOccurrences(of: "</", with: "<\\/").replacingOccurrences(of: "<!--", with: "<\\u0021--")
            #expect(ReportPage.embedded(data) == expected, "\(text)")
        }
    }

    @Test("past the mark limit ordinary calls fold into buckets; every call is a mark or counted in one")
    func folding() throws {
        var timeline = Timeline()
        let start = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        timeline.first = (1, start)
        let project = ProjectFingerprint(apiKey: "folding")
        timeline.projects = [project]
        let total = MarkBuckets.markLimit * 3
        for index in 0..<total {
            let time = JournalTime(microsecondsSince1970: start.microsecondsSince1970 + Int64(index) * 1_000)
            let id = CallID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", index))!)
            var row = AuditRow(call: id, name: .track, received: (UInt64(index + 2), time), madeAt: time, liveAtCall: project)
            row.outcome = index % 10 == 0 ? .failed(.notInitialized) : .delivered(project: project, status: 200)
            timeline.calls.append(Timeline.Call(row: row, summary: "track", factJSON: nil, held: nil))
            timeline.last = (UInt64(index + 2), time)
        }
        let split = try MarkBuckets(timeline) { $0 == project ? 0 : 1 }
        #expect(split.marks.count == total / 10, "the failed calls stay marks")
        #expect(split.marks.allSatisfy { timeline.status(of: $0) == "failed" })
        #expect(split.folded == total - total / 10)
        // Past the notable limit, the notable marks are taken evenly, the rest folded.
        for index in timeline.calls.indices { timeline.calls[index].row.outcome = .failed(.notInitialized) }
        let crowded = try MarkBuckets(timeline) { _ in 1 }
        #expect(crowded.marks.count <= MarkBuckets.notableLimit && crowded.marks.count >= MarkBuckets.notableLimit / 2)
        #expect(crowded.marks.last.map { timeline.sequence(of: $0) ?? 0 > UInt64(total * 3 / 4) } == true, "marks reach the journal's end")
        #expect(crowded.marks.count + crowded.folded == total)
        #expect(crowded.buckets.map(\.count).reduce(0, +) == crowded.folded)
        #expect(split.buckets.map(\.count).reduce(0, +) == split.folded)
        #expect(split.buckets.count <= MarkBuckets.bucketCount)
        #expect(split.buckets.allSatisfy { $0.firstSequence <= $0.lastSequence && $0.statuses["delivered"] == $0.count })
    }

    @Test("spilled values and bytes come back as they went, from the file and from the buffer")
    func spills() throws {
        struct Pair: Equatable { var time: Int64; var sequence: UInt64; var flag: UInt32 }
        let values = SpilledValues<Pair>(name: "test-values", flushBytes: 64)
        let written = (0..<1_000).map { Pair(time: Int64($0) * -7, sequence: UInt64($0) * 3, flag: UInt32($0 % 5)) }
        for value in written { try values.append(value) }
        #expect(values.spilled, "a 64-byte buffer went to the file")
        var read: [Pair] = []
        try values.forEach { read.append($0) }
        #expect(read == written)
        let bytes = SpilledBytes(name: "test-bytes", flushBytes: 100)
        let texts = (0..<500).map { String(repeating: "\($0 % 10)", count: $0 % 37) + "#\($0)" }
        let offsets = try texts.map { try bytes.append(Array($0.utf8)) }
        for index in [0, 1, 17, 250, 498, 499] {
            let back = try bytes.read(at: offsets[index], count: texts[index].utf8.count)
            #expect(String(decoding: back, as: UTF8.self) == texts[index], "text \(index)")
        }
        #expect(throws: SpillError.self) { try bytes.read(at: offsets[499], count: 10_000) }
    }

    @Test("a spill's temporary file has no name while it is used: nothing of it stands in the temporary directory")
    func spillFilesHaveNoName() throws {
        let name = "test-unnamed-\(UInt32.random(in: 0...UInt32.max))"
        let bytes = SpilledBytes(name: name, flushBytes: 16)
        let offset = try bytes.append(Array(repeating: UInt8(ascii: "x"), count: 4_000))
        let values = SpilledValues<UInt64>(name: name, flushBytes: 16)
        for value in 0..<1_000 as Range<UInt64> { try values.append(value) }
        #expect(values.spilled)
        let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.contains(name) }
        #expect(left.isEmpty, "named files of a spill: \(left)")
        #expect(try bytes.read(at: offset + 3_990, count: 10) == Array(repeating: UInt8(ascii: "x"), count: 10))
        #expect(try values.value(at: 999) == 999 && values.value(at: 0) == 0)
    }

    @Test("a depth counter reads the same from memory and from its temporary file: changes only, the maximum, the last time")
    func counterSpill() throws {
        var inMemory = Timeline.Counter(), spilled = Timeline.Counter(spilling: "test-depth")
        let values = (0..<200_000).map { ($0 / 3) % 17 }
        for (index, value) in values.enumerated() {
            let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000 + Int64(index) * 10)
            try inMemory.record(value, at: time, sequence: UInt64(index + 1))
            try spilled.record(value, at: time, sequence: UInt64(index + 1))
        }
        var fromMemory: [String] = [], fromFile: [String] = []
        try inMemory.forEach { fromMemory.append("\($0.microsecondsSince1970) \($1)") }
        try spilled.forEach { fromFile.append("\($0.microsecondsSince1970) \($1)") }
        #expect(fromFile == fromMemory && fromFile.count == inMemory.changes.count && spilled.changes.isEmpty)
        #expect(fromFile.count == values.count / 3 + 1, "a value repeated is one change")
        #expect(spilled.count == inMemory.count && spilled.maximum == 16 && inMemory.maximum == 16 && spilled.lastTime == inMemory.lastTime)
    }

    @Test("the state sample stays within its limit and its byte budget")
    func sampling() {
        var sampler = StateSampler(byteBudget: 1 << 20, sampleLimit: 8)
        for ordinal in 0..<1_000 { sampler.offer(SDKState(), call: ordinal, after: UInt64(ordinal + 1)) }
        #expect(sampler.states.count <= 8 && sampler.states.count >= 4)
        #expect(sampler.states.keys.allSatisfy { ($0 - 1) % 128 == 0 }, "evenly thinned")
        var tight = StateSampler(byteBudget: 10, sampleLimit: 8)
        tight.keep(SDKState(), after: 1)
        #expect(tight.states.isEmpty && tight.skipped == 1)
    }

    @Test("a state document's least count, which spares the sampler documents it would refuse, never exceeds its bytes")
    func leastSerializedCount() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let walk = try JournalWalk(reader: try JournalReader(directory: journal))
        var seen = (pending: 0, held: 0, tasks: 0)
        while let record = try walk.next() {
            walk.fold(record)
            let state = walk.state
            let least = StateDocument.leastSerializedCount(state)
            let bytes = StateDocument.make(state).serialized().utf8.count
            #expect(least <= bytes, "record \(record.sequence): \(least) > \(bytes)")
            seen.pending = max(seen.pending, state.pendingCalls.count)
            seen.held = max(seen.held, state.switching.gate.count)
            seen.tasks = max(seen.tasks, state.tasks.count)
        }
        #expect(seen.pending > 0 && seen.held > 0 && seen.tasks > 0, "the demo's states hold calls, held calls and tasks: \(seen)")
    }
}
