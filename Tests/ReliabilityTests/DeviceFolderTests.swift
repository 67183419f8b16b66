import Foundation
import Journal
import ReplayKit
import Testing
import TestSupport
@testable import replay

/// An app and its extension, each a process of its own, write one device folder at the same
/// time: each its own journal under its own lock, a second writer of a role refused; `replay`
/// reads the folder as one timeline, a lane per process, in time order, each process's order kept.
@Suite("App extensions: a device folder", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct DeviceFolderTests {
    static let calls = 200

    /// `replay ARGUMENTS`: exit status, standard output, standard error.
    static func replay(_ arguments: [String]) -> (status: Int32, out: String, error: String) {
        var out = "", error = ""
        let status = ReplayCommandLine.run(arguments, console: Console(out: { out += $0 }, error: { error += $0 }))
        return (status, out, error)
    }

    @Test("two processes write concurrently, a second writer of a role is refused, replay merges the lanes in time order",
          .enabled(if: ChildProcess.executable != nil))
    func twoProcesses() async throws {
        let directory = TemporaryDirectory()
        let app = try ChildProcess(arguments: ["process", directory.path, "app", String(Self.calls)])
        #expect(await app.nextLine() == "open")
        let widget = try ChildProcess(arguments: ["process", directory.path, "widget", String(Self.calls)])
        #expect(await widget.nextLine() == "open")

        // The app's role is taken: a second process of it is refused by the lock, naming it.
        let second = try ChildProcess(arguments: ["process", directory.path, "app", "1"])
        let refusal = await second.nextLine() ?? "(no line)"
        #expect(refusal.hasPrefix("refused ") && refusal.contains(directory.path + "/journal/lock")
                && refusal.contains("being written by another writer"), "\(refusal)")
        #expect(await second.exitStatus() == 3)

        // Both write at once.
        app.send("go")
        widget.send("go")
        #expect(await app.nextLine() == "done")
        #expect(await widget.nextLine() == "done")
        #expect(await app.exitStatus() == 0)
        #expect(await widget.exitStatus() == 0)
        for role in ["journal", "journal-widget"] {
            #expect(try JournalReader(directory: directory.path + "/" + role).verify().isClean, "\(role)")
        }

        // One timeline: both lanes, each process's sequence order kept, times never going back.
        let timeline = Self.replay(["timeline", "--json", directory.path])
        #expect(timeline.status == 0, "\(timeline.error)")
        var lastSequence: [String: UInt64] = [:]
        var lastTime = ""
        var tracked: [String: [String]] = [:]
        var trackedInTimeOrder: [String] = []
        var lanesSeen: [String] = []
        for line in timeline.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let process = try #require(object["process"] as? String)
            let sequence = try #require((object["seq"] as? NSNumber)?.uint64Value)
            let time = try #require(object["time"] as? String)
            #expect(sequence > lastSequence[process] ?? 0, "\(process)'s records in its sequence order")
            lastSequence[process] = sequence
            #expect(time >= lastTime, "time order across the lanes: \(line)")
            lastTime = time
            if lanesSeen.last != process { lanesSeen.append(process) }
            if object["kind"] as? String == "callReceived", let request = object["request"] as? [String: Any], let event = request["event"] as? String {
                tracked[process, default: []].append(event)
                trackedInTimeOrder.append(event)
            }
        }
        #expect(Set(lastSequence.keys) == ["app", "widget"])
        #expect(tracked["app"] == (1...Self.calls).map { "app-\($0)" }, "\(tracked["app"] ?? [])")
        #expect(tracked["widget"] == (1...Self.calls).map { "widget-\($0)" }, "\(tracked["widget"] ?? [])")

        // The text timeline leads each line with its lane; audit rows too.
        let text = Self.replay(["timeline", directory.path])
        #expect(text.status == 0)
        let leads = Set(text.out.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" })
        #expect(leads == ["app", "widget"])
        let audit = Self.replay(["audit", directory.path])
        #expect(audit.status == 0, "\(audit.error)")
        let rows = audit.out.split(separator: "\n")
        #expect(rows.filter { $0.hasPrefix("app ") && $0.contains(" track ") }.count == Self.calls)
        #expect(rows.filter { $0.hasPrefix("widget ") && $0.contains(" track ") }.count == Self.calls)
        for role in ["app", "widget"] {
            #expect(rows.contains { $0.hasPrefix("\(role): \(Self.calls) call(s): ") }, "\(rows.suffix(4))")
        }

        // The report: one page in time order with a column per process, linking to each
        // process's own report written beside it.
        let pages = TemporaryDirectory()
        let report = Self.replay(["report", "-o", pages.path + "/device.html", directory.path])
        #expect(report.status == 0, "\(report.out)\(report.error)")
        let page = try String(contentsOfFile: pages.path + "/device.html", encoding: .utf8)
        #expect(page.contains("<th><a href=\"device-app.html\">app</a>") && page.contains("<th><a href=\"device-widget.html\">widget</a>"))
        #expect(page.contains("device-widget.html#seq=") && page.contains("track &quot;widget-\(Self.calls)&quot;"))
        // The page's rows in the timeline's order (which processes interleave is up to the
        // scheduler; the order they were merged in is the timeline's).
        let rowPositions = try trackedInTimeOrder.map { event in try #require(page.range(of: "track &quot;\(event)&quot;")).lowerBound }
        #expect(rowPositions == rowPositions.sorted(), "rows in the timeline's time order")
        for role in ["app", "widget"] {
            #expect(FileManager.default.fileExists(atPath: pages.path + "/device-\(role).html"))
        }
        // The device page draws a lane per process, each bar linking to its first fact.
        #expect(page.contains("<svg class=\"device-overview\"") && page.contains("<a href=\"device-widget.html#seq="))

        // `serve` serves the device's page, then each process's journal as an entry of its own;
        // the page's bars and facts link to the served journals' moments.
        let served = ServedJournals(paths: [directory.path])
        let device = (directory.path as NSString).lastPathComponent
        #expect(served.entries.map(\.name) == [device, "\(device) (app)", "\(device) (widget)"])
        #expect(served.journalPaths == [directory.path + "/journal", directory.path + "/journal-widget"])
        func get(_ path: String, _ query: [String: String] = [:]) -> (status: Int, body: String) {
            let reply = served.answer(HTTPRequestHead(method: "GET", path: path, query: query))
            return (reply.status, String(decoding: reply.body, as: UTF8.self))
        }
        let devicePage = get("/j/0/")
        #expect(devicePage.status == 200)
        #expect(devicePage.body.contains("<a href=\"/j/1/\">app</a>") && devicePage.body.contains("<a href=\"/j/2/\">widget</a>"))
        let widgetLink = try #require(devicePage.body.range(of: "track &quot;widget-\(Self.calls)&quot;").map { range in
            devicePage.body[..<range.lowerBound].components(separatedBy: "<a href=\"/j/2/#seq=").last?.prefix { $0.isNumber }
        } ?? nil)
        let widgetMoment = get("/j/2/moment", ["at": String(widgetLink)])
        #expect(widgetMoment.status == 200 && widgetMoment.body.contains("widget-\(Self.calls)"), "\(widgetMoment.body.prefix(300))")
        let refused = get("/j/0/moment", ["at": "1"])
        #expect(refused.status == 404 && refused.body.contains("/j/1/ (app), /j/2/ (widget)"), "\(refused.body)")
        let listed = get("/journals").body
        #expect(listed.contains("\"processes\":[{\"process\":\"app\",\"journal\":1},{\"process\":\"widget\",\"journal\":2}]"), "\(listed)")
        #expect(get("/j/1/").body.contains("journal-picker"))

        // A single journal reads as it always did: no lane column.
        let single = Self.replay(["timeline", directory.path + "/journal-widget"])
        #expect(single.status == 0)
        #expect(single.out.split(separator: "\n").allSatisfy { !$0.hasPrefix("widget") })
    }
}
