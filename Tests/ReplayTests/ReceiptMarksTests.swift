import Foundation
import Journal
import ReplayKit
import Simulation
import Testing
@testable import replay
@testable import SDK

/// `replay report --received` and `replay serve --received`: a journal and a receipt log with
/// every verdict (made on the threadless engine, as `replay reconcile`'s own tests make them)
/// give each call its receipt mark on the lane of the project that received it, and bad receipt
/// input is named as `reconcile` names it.
@Suite("receipt marks in the report and serve", .timeLimit(.minutes(2)))
struct ReceiptMarksTests {
    /// A journal of calls to A (one of them refused with a 400) and a receipt log in which the
    /// backends misbehaved once per verdict.
    struct EveryVerdict {
        let scene: ReconcileTests.Scene
        let log: String
        /// The call ids (wire) of the receipts made to have each verdict.
        let ids: [ReconcileVerdict: WireCallID]

        init() throws {
            let scene = try ReconcileTests.Scene { store in
                store.answer("events/track", status: 400, body: #"{"code":"InvalidJsonBody"}"#)
                store.call(.track(event: "refused", dataFields: nil))
                store.settle()
            }
            var lines = scene.lines
            let refused = try #require(scene.store.requests.last { $0.body.contains(#""eventName":"refused""#) }?.callIDs.first)
            var ids: [ReconcileVerdict: WireCallID] = [:]
            // 0: late; 1: stored twice; 2: agreed; 3: received by B; 4: dropped.
            lines[0].receivedAt = lines[0].receivedAt.advanced(by: .seconds(5))
            ids[.late] = lines[0].callID
            var again = lines[1]
            again.receivedAt = again.receivedAt.advanced(by: .milliseconds(-1))
            ids[.duplicate] = lines[1].callID
            ids[.agreed] = lines[2].callID
            lines[3].project = scene.store.fingerprint(.B)
            ids[.elsewhere] = lines[3].callID
            ids[.lost] = lines.remove(at: 4).callID
            var taken = lines[2]
            taken.callID = refused
            taken.endpoint = "events/track"
            ids[.unconfirmed] = refused
            var stray = lines[2]
            let strayHex = String(stray.callID.hex.dropLast()) + (stray.callID.hex.hasSuffix("0") ? "1" : "0")
            stray.callID = try #require(WireCallID(hex: strayHex))
            ids[.unjournaled] = stray.callID
            log = try scene.write(lines + [again, taken, stray])
            self.scene = scene
            self.ids = ids
        }
    }

    /// The embedded data of the report `replay report` writes for `journal` with `arguments`.
    static func report(_ journal: String, _ arguments: [String]) throws -> (run: ReplayRun, data: JSONProbe, html: String) {
        let output = ReplayHarness.temporaryDirectory() + "/report.html"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let run = ReplayHarness.run(["report", "-o", output, journal] + arguments)
        let html = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard !html.isEmpty else { return (run, JSONProbe(nil), html) }
        return (run, JSONProbe(try ReportTests.embeddedData(html)), html)
    }

    @Test("each verdict is a receipt mark on the lane of the project that received it, and in its call's details")
    func everyVerdictMarked() throws {
        let every = try EveryVerdict()
        defer { try? FileManager.default.removeItem(atPath: every.scene.directory) }
        let (run, data, html) = try Self.report(every.scene.journal, ["--received", every.log])
        #expect(run.status == 1, "anything but agreed is a finding: \(run.out)\(run.error)")
        #expect(run.out.contains("against the receipt logs: 1 elsewhere, 1 lost, 1 duplicate, 1 unconfirmed, 1 late, 1 unjournaled, 1 agreed"), "\(run.out)")
        let received = data["received"]
        for verdict in ReconcileVerdict.allCases {
            #expect(received["totals"][verdict.rawValue].int == 1, "\(verdict): \(received["totals"].value ?? "none")")
        }
        let lanes = data["lanes"].array
        let laneB = try #require(lanes.firstIndex { $0["fingerprint"].string == every.scene.store.fingerprint(.B).hex },
                                 "B, which only a receipt names, has a lane")
        #expect(lanes[laneB]["receipts_only"].bool == true)
        let laneA = try #require(lanes.firstIndex { $0["fingerprint"].string == every.scene.store.fingerprint(.A).hex })
        let marks = data["marks"].array
        let allReceiptMarks = received["marks"].array
        func receiptMarks(_ verdict: ReconcileVerdict) -> [JSONProbe] { allReceiptMarks.filter { $0["verdict"].string == verdict.rawValue } }
        #expect(receiptMarks(.duplicate).count == 2, "one mark per receipt stored")
        #expect(receiptMarks(.duplicate).allSatisfy { $0["lane"].int == laneA })
        let elsewhere = try #require(receiptMarks(.elsewhere).first)
        #expect(elsewhere["lane"].int == laneB, "the misrouted receipt is on the lane of the project that received it")
        let elsewhereCall = try #require(elsewhere["mark"].int, "and linked to its call's mark")
        #expect(marks[elsewhereCall]["received"]["verdict"].string == "elsewhere")
        #expect(marks[elsewhereCall]["received"]["receipts"].array.first?["project"].string == every.scene.store.fingerprint(.B).hex)
        let lost = try #require(receiptMarks(.lost).first)
        #expect(lost["missing"].bool == true && lost["lane"].int == laneA, "a lost call's mark is where its receipt should be")
        #expect(receiptMarks(.unjournaled).first?["mark"].isNull == true, "a receipt no call explains has no call mark")
        #expect(receiptMarks(.unjournaled).first?["text"].string?.contains(every.ids[.unjournaled]!.hex) == true)
        #expect(receiptMarks(.unconfirmed).count == 1 && receiptMarks(.late).count == 1 && receiptMarks(.agreed).count >= 1)
        // Every call the log judged names its verdict and receipts in its mark's details.
        let judged = marks.compactMap { $0["received"]["verdict"].string }
        #expect(Set(judged) == ["elsewhere", "lost", "duplicate", "unconfirmed", "late", "agreed"], "\(judged)")
        let late = try #require(marks.first { $0["received"]["verdict"].string == "late" })
        let receipt = try #require(late["received"]["receipts"].array.first)
        #expect(receipt["status"].int == 200 && receipt["duplicate"].bool == false && receipt["received_at"].string != nil)
        #expect(receipt["place"].string?.hasSuffix("received.ndjson:1") == true)
        #expect(html.contains("receipt-legend"), "the legend names the marks")
    }

    @Test("without --received the report is as it was: no receipt data, no verdict on a mark")
    func withoutReceived() throws {
        let every = try EveryVerdict()
        defer { try? FileManager.default.removeItem(atPath: every.scene.directory) }
        let plain = try Self.report(every.scene.journal, [])
        #expect(plain.data["received"].value == nil)
        #expect(plain.data["marks"].array.allSatisfy { $0["received"].value == nil })
        #expect(plain.data["lanes"].array.count == 2, "A and not delivered")
        #expect(!plain.run.out.contains("receipt logs"))
        let again = try Self.report(every.scene.journal, [])
        #expect(plain.html == again.html)
    }

    @Test("bad receipt input: the same messages as reconcile, the good lines' marks stand; a missing log exits 2")
    func badInput() throws {
        let every = try EveryVerdict()
        defer { try? FileManager.default.removeItem(atPath: every.scene.directory) }
        var lines = every.scene.lines.map(\.json)
        lines.insert("not json", at: 1)
        lines.insert(#"{"project":"00112233445566ff","region":"us","endpoint":"events/track","received_at":"2025-11-24T16:00:00Z","status":200}"#, at: 3)
        let log = try every.scene.write(lines, name: "malformed.ndjson")
        let reconciled = ReplayHarness.run(["reconcile", every.scene.journal, "--received", log])
        let reported = try Self.report(every.scene.journal, ["--received", log])
        func problems(_ text: String, _ command: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix("replay \(command): ") }.map { String($0.dropFirst("replay \(command): ".count)) }
        }
        #expect(problems(reconciled.error, "reconcile").contains { $0.hasSuffix("malformed.ndjson:2: not a JSON object; line skipped") })
        #expect(problems(reported.run.error, "report") == problems(reconciled.error, "reconcile"), "\(reported.run.error)")
        #expect(reported.run.status == 1)
        #expect(reported.data["received"]["totals"]["agreed"].int == every.scene.lines.count + 1,
                "the good lines are judged as if alone (and the refused call, which no line names, agrees)")
        #expect(reported.data["received"]["problem_count"].int == 2)
        let missing = ReplayHarness.run(["report", "-o", every.scene.directory + "/r.html", every.scene.journal,
                                         "--received", every.scene.directory + "/nowhere.ndjson"])
        #expect(missing.status == 2 && missing.error.contains("replay report: \(every.scene.directory)/nowhere.ndjson: no such file"), "\(missing.error)")
        let served = ReplayHarness.run(["serve", every.scene.journal, "--received", every.scene.directory + "/nowhere.ndjson"])
        #expect(served.status == 2 && served.error.contains("replay serve: \(every.scene.directory)/nowhere.ndjson: no such file"), "\(served.error)")
        let standardInput = ReplayHarness.run(["report", "-o", every.scene.directory + "/r.html", "-", "--received", every.log])
        #expect(standardInput.status == 2 && standardInput.error.contains("--received needs a journal directory"))
    }

    @Test("serve --received: the page has the marks, and a call's moment names its verdict and receipts", .tags(.endToEnd))
    func served() throws {
        let every = try EveryVerdict()
        defer { try? FileManager.default.removeItem(atPath: every.scene.directory) }
        var arguments = Arguments([every.scene.journal, "--received", every.log])
        let command = try ServeCommand(arguments: &arguments)
        var errors = ""
        let (journals, server) = try command.listen(console: Console(out: { _ in }, error: { errors += $0 }))
        server.start()
        defer { server.stop() }
        #expect(errors.contains("is no project the journals sent to"), "bad input is named before serving: \(errors)")
        let page = HTTPProbe.get("/j/0/", port: server.port)
        let data = JSONProbe(try ReportTests.embeddedData(page.body))
        #expect(data["received"]["marks"].array.contains { $0["verdict"].string == "elsewhere" })
        #expect(journals.received?.count == 1)
        let elsewhere = try #require(data["marks"].array.first { $0["received"]["verdict"].string == "elsewhere" })
        let seq = try #require(elsewhere["seq"].int)
        let moment = try #require(JSONProbe(parsing: HTTPProbe.get("/j/0/moment?at=\(seq)", port: server.port).body))
        #expect(moment["received"]["verdict"].string == "elsewhere")
        let receipt = try #require(moment["received"]["receipts"].array.first)
        #expect(receipt["project"].string == every.scene.store.fingerprint(.B).hex)
        #expect(receipt["status"].int == 200 && receipt["duplicate"].bool == false && receipt["received_at"].string != nil)
        let notACall = try #require(JSONProbe(parsing: HTTPProbe.get("/j/0/moment?at=1", port: server.port).body))
        #expect(notACall["received"].value == nil, "a moment that is no call has no verdict")
    }
}
