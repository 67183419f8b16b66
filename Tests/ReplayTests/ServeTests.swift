import Foundation
import Journal
import ReplayKit
import SDKTesting
import Testing
@testable import replay

/// `replay serve` over a real loopback socket: every moment's state is the bytes `replay state
/// --at` prints (every sequence of the demo journal, a sample of a long one), a call's moment
/// carries its audit row as `replay audit --json` writes it, stepping lands on the next call and
/// switch, search finds facts, and nothing but the served journals' endpoints is answered.
@Suite("replay serve", .tags(.endToEnd), .serialized, .timeLimit(.minutes(5)))
struct ServeTests {
    /// A server over `paths`, stopped when `body` returns.
    private static func serving<Result>(_ paths: [String], _ body: (LoopbackServer, ServedJournals) throws -> Result) throws -> Result {
        let journals = ServedJournals(paths: paths)
        let server = try LoopbackServer { journals.answer($0) }
        server.start()
        defer { server.stop() }
        return try body(server, journals)
    }

    private static func moment(_ seq: UInt64, journal: Int = 0, port: UInt16) throws -> JSONProbe {
        let answer = HTTPProbe.get("/j/\(journal)/moment?at=\(seq)", port: port)
        #expect(answer.status == 200, "\(seq): \(answer.body)")
        return try #require(JSONProbe(parsing: answer.body))
    }

    @Test("the state of every sequence of the demo journal is `replay state --at`'s, byte for byte")
    func everyDemoSequence() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let last = try #require(JSONProbe(parsing: ReplayHarness.run(["info", "--json", journal]).out)?["last_sequence"].int)
        try Self.serving([journal]) { server, _ in
            for seq in 1...last {
                let expected = ReplayHarness.run(["state", "--at", "\(seq)", journal])
                let served = HTTPProbe.get("/j/0/state?at=\(seq)", port: server.port)
                #expect(served.status == 200)
                #expect(served.body == expected.out, "seq \(seq)")
                let moment = try Self.moment(UInt64(seq), port: server.port)
                #expect(moment["state_text"].string == expected.out, "moment \(seq)")
            }
            let json = ReplayHarness.run(["state", "--at", "94", "--json", journal]).out
            #expect(HTTPProbe.get("/j/0/state?at=94&json=1", port: server.port).body == json)
            let time = ReplayHarness.run(["state", "--at", "2025-11-24T16:00:55.5Z", journal]).out
            #expect(HTTPProbe.get("/j/0/state?at=2025-11-24T16%3A00%3A55.5Z", port: server.port).body == time)
        }
    }

    @Test("a call's moment has its audit row; the steps land on the neighbouring calls and switches")
    func auditRowsAndSteps() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let rows = JSONProbe.lines(ReplayHarness.run(["audit", "--json", journal]).out).dropLast()
        let audited = ReplayHarness.run(["audit", "--json", journal]).out.split(separator: "\n").dropLast()
        let callSeqs = rows.compactMap { $0["seq"].int }.sorted()
        let switchSeqs = ReplayHarness.run(["timeline", "--json", "--kind", "switchRouted", "--kind", "switchStarted", "--kind", "switchLanded", journal])
            .out.split(separator: "\n").compactMap { JSONProbe(parsing: $0)?["seq"].int }
        #expect(callSeqs.count > 10 && switchSeqs.count > 3)
        try Self.serving([journal]) { server, _ in
            for (row, line) in zip(rows, audited) {
                guard let seq = row["seq"].int else { continue }
                let answer = HTTPProbe.get("/j/0/moment?at=\(seq)", port: server.port).body
                let moment = try #require(JSONProbe(parsing: answer))
                #expect(moment["kind"].string == "callReceived")
                // The row as `replay audit --json` writes it, member for member.
                let served = try #require(JSONProbe(parsing: line))
                #expect(moment["audit"].value as? NSDictionary == served.value as? NSDictionary, "seq \(seq)")
            }
            for seq in [1, 60, 111, 150] {
                let steps = try Self.moment(UInt64(seq), port: server.port)["steps"]
                #expect(steps["next_call"].int == callSeqs.first { $0 > seq })
                #expect(steps["prev_call"].int == callSeqs.last { $0 < seq })
                #expect(steps["next_switch"].int == switchSeqs.first { $0 > seq })
                #expect(steps["prev_switch"].int == switchSeqs.last { $0 < seq })
                #expect(steps["next_fact"].int == seq + 1)
            }
        }
    }

    @Test("search finds facts by kind and words, page by page")
    func search() async throws {
        let journal = await DemoFixture.shared.journal().journal
        try Self.serving([journal]) { server, _ in
            let answer = try #require(JSONProbe(parsing: HTTPProbe.get("/j/0/search?q=registerToken", port: server.port).body))
            let hits = answer["hits"].array
            #expect(!hits.isEmpty)
            #expect(hits.allSatisfy { ($0["summary"].string ?? "").lowercased().contains("registertoken") || $0["kind"].string == "registerToken" })
            let later = try #require(JSONProbe(parsing: HTTPProbe.get("/j/0/search?q=registerToken&from=100", port: server.port).body))
            #expect(later["hits"].array.allSatisfy { ($0["seq"].int ?? 0) >= 100 })
        }
    }

    @Test("the page is the report's with the serve bar; several journals get a picker")
    func pages() async throws {
        let journal = await DemoFixture.shared.journal().journal
        try Self.serving([journal, journal]) { server, journals in
            #expect(journals.entries.map(\.name).count == 2)
            let page = HTTPProbe.get("/j/1/", port: server.port)
            #expect(page.status == 200)
            #expect(page.head.contains("Content-Type: text/html"))
            #expect(page.body.contains("id=\"journal-picker\""))
            #expect(page.body.contains("id=\"scrubber\""))
            #expect(page.body.contains("const REPLAY_SERVE = {journal: 1};"))
            #expect(page.body.contains("id=\"report-data\""))
            let root = HTTPProbe.get("/", port: server.port)
            #expect(root.status == 302)
            #expect(root.head.contains("Location: /j/0/"))
            #expect(HTTPProbe.get("/j/0/", port: server.port, method: "HEAD").body.isEmpty)
        }
    }

    @Test("nothing but the served journals' endpoints: traversal, encoded traversal, other files, other hosts, other methods")
    func refusals() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).first { $0.hasSuffix(".lz4") })
        try Self.serving([journal]) { server, _ in
            #expect(server.host == "127.0.0.1")
            let port = server.port
            let refused = [
                "/../../../../etc/passwd", "/j/0/../../../../etc/passwd", "/j/0/../../../..\(journal)/\(segment)",
                "/%2e%2e/%2e%2e/etc/passwd", "/j/0/%2e%2e/%2e%2e/etc/passwd", "/j/%30/", "/j/0%2f..%2f..%2fetc/passwd",
                "/j/..%2F..%2Fetc%2Fpasswd/", "/j/0/\(segment)", "/\(segment)", "/etc/passwd", "//etc/passwd",
                "/j/1/", "/j/00/", "/j/-1/", "/j/+0/", "/j/0", "/j/0/state/../state", "/j/0/STATE?at=1", "/j//state",
                "/j/0/state/", "/journals/../j/0/", "/j/0/index.html", "/j/99999999999999999999/",
            ]
            for target in refused {
                let answer = HTTPProbe.get(target, port: port)
                #expect(answer.status == 404, "\(target): \(answer.status)")
                #expect(!answer.body.contains("root:"), "\(target)")
            }
            #expect(HTTPProbe.get("http://127.0.0.1:\(port)/j/0/", port: port).status == 400)
            #expect(HTTPProbe.get("/j/0/", port: port, method: "POST").status == 405)
            #expect(HTTPProbe.get("/j/0/state?at=1", port: port, host: "evil.example:\(port)").status == 403)
            #expect(HTTPProbe.get("/j/0/state?at=1", port: port, host: "").status == 403)
            #expect(HTTPProbe.get("/j/0/state?at=1", port: port, host: "localhost:\(port)").status == 200)
            #expect(HTTPProbe.get("/j/0/state?at=%zz", port: port).status == 400)
            #expect(HTTPProbe.get("/j/0/state?at=9999", port: port).status == 200)
            #expect(HTTPProbe.get("/j/0/moment?at=9999", port: port).status == 404)
            #expect(HTTPProbe.get("/j/0/moment?at=x", port: port).status == 400)
            let huge = HTTPProbe.send(Array(("GET /j/0/ HTTP/1.1\r\nX: " + String(repeating: "a", count: 20_000) + "\r\n\r\n").utf8), port: port)
            #expect(huge.status == 431)
        }
    }

    @Test("a folder of journals is served journal by journal; a path that is not a journal is named before serving")
    func folder() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let folder = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["b", "a"] { try FileManager.default.copyItem(atPath: demo, toPath: folder + "/" + name) }
        var arguments = Arguments([folder])
        let command = try ServeCommand(arguments: &arguments)
        let console = Console(out: { _ in }, error: { _ in })
        let (journals, server) = try command.listen(console: console)
        server.stop()
        #expect(journals.entries.map(\.path) == [folder + "/a", folder + "/b"])
        #expect(journals.entries.map(\.name) == ["a", "b"])
        var missing = Arguments([folder + "/a", folder + "/nope"])
        #expect(throws: (any Error).self) { try ServeCommand(arguments: &missing).listen(console: console) }
        let named = ReplayHarness.run(["serve", folder + "/nope"])
        #expect(named.status == 2)
        #expect(named.error.contains(folder + "/nope"))
    }

    @Test("--host and --port are parsed; a bad address is refused by name")
    func options() throws {
        let bad = ReplayHarness.run(["serve", "--host", "example.com", "/nonexistent"])
        #expect(bad.status == 2)
        #expect(ReplayHarness.run(["serve", "--port", "70000", "/j"]).error.contains("--port expects a port number"))
        #expect(throws: ServeError.self) { try LoopbackServer(host: "example.com") { _ in .refusal(404, "") } }
    }

    @Test("the Host check holds on every address: bound to every interface, a rebinding name gets 403; the loopback names and --allow-host names are answered")
    func hostCheckOnEveryAddress() throws {
        var arguments = Arguments(["--host", "0.0.0.0", "--allow-host", "Support-Box.local", "/j"])
        let command = try ServeCommand(arguments: &arguments)
        #expect(command.allowedHosts == ["Support-Box.local"])
        let server = try LoopbackServer(host: command.host, port: 0, allowedHosts: command.allowedHosts) { _ in .text("ok") }
        server.start()
        defer { server.stop() }
        let port = server.port
        #expect(HTTPProbe.get("/", port: port, host: "rebind.example:\(port)").status == 403)
        #expect(HTTPProbe.get("/", port: port, host: "rebind.example").status == 403)
        #expect(HTTPProbe.get("/", port: port, host: "0.0.0.0:\(port)").status == 403)
        #expect(HTTPProbe.get("/", port: port, host: "localhost:\(port + 1)").status == 403)
        #expect(HTTPProbe.get("/", port: port, host: "localhost.:\(port)").status == 403)
        #expect(HTTPProbe.get("/", port: port, host: "").status == 403)
        let refused = HTTPProbe.get("/", port: port, host: "rebind.example:\(port)")
        #expect(refused.body.contains("--allow-host"))
        #expect(HTTPProbe.get("/", port: port, host: "127.0.0.1:\(port)").status == 200)
        #expect(HTTPProbe.get("/", port: port, host: "LOCALHOST:\(port)").status == 200)
        #expect(HTTPProbe.get("/", port: port, host: "support-box.local:\(port)").status == 200)
    }

    @Test("a sample of a long journal's moments: the state is `replay state --at`'s, across its segments")
    func longJournalSample() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await LongSDKJournal.make(directory: directory, calls: 9_000, switchEvery: 1_500)
        let journal = directory + "/journal"
        let info = try #require(JSONProbe(parsing: ReplayHarness.run(["info", "--json", journal]).out))
        let (segments, last) = (try #require(info["segments"].int), try #require(info["last_sequence"].int))
        #expect(segments >= 2, "segments: \(segments)")
        // Seeded: the same sample every run; the ends and each segment's first records too.
        var generator = SplitMix64(seed: UInt64(last))
        var sample: Set<Int> = [1, 2, last - 1, last]
        while sample.count < 40 { sample.insert(Int(generator.next() % UInt64(last)) + 1) }
        for boundary in stride(from: 20_000, to: last, by: 20_000) { sample.formUnion([boundary - 1, boundary, boundary + 1]) }

        // A page whose pass outlasts the patience: the first paint, from the index files alone,
        // then the page once the pass (one, however many ask) has read the journal.
        let patient = ServedJournals(paths: [journal], firstPaintPatience: .nanoseconds(0))
        func get(_ path: String) -> String {
            String(decoding: patient.answer(HTTPRequestHead(method: "GET", path: path)).body, as: UTF8.self)
        }
        let firstPaint = get("/j/0/")
        #expect(firstPaint.contains("<svg id=\"first-paint\"") && firstPaint.contains("\(segments) segment(s)"), "\(firstPaint.prefix(600))")
        #expect(!firstPaint.contains("report-data"))
        let reading = try #require(JSONProbe(parsing: get("/j/0/progress")))
        #expect(reading["failed"].isNull && reading["read"].int != nil)
        struct PassNotRunning: Error {}
        // Waits for the pass the first request started; would make a page only if none ran.
        let page = try patient.pages.value(for: 0) { throw PassNotRunning() }
        #expect(page.contains("report-data") && get("/j/0/") == page)
        let ready = try #require(JSONProbe(parsing: get("/j/0/progress")))
        #expect(ready["ready"].bool == true && ready["read"].int.map { $0 > 0 } == true, "\(ready)")
        #expect(patient.pages.makeCount == 1)

        try Self.serving([journal]) { server, _ in
            for seq in sample.sorted() {
                let expected = ReplayHarness.run(["state", "--at", "\(seq)", journal]).out
                #expect(HTTPProbe.get("/j/0/state?at=\(seq)", port: server.port).body == expected, "seq \(seq)")
                let moment = try Self.moment(UInt64(seq), port: server.port)
                #expect(moment["state_text"].string == expected, "moment \(seq)")
            }
        }
    }
}
