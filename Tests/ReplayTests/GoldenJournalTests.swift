import Foundation
import Testing

/// The golden journals of journal format 1.0 (`Tests/Fixtures/journals/v1.0`, see its README),
/// read by today's `replay`: every later version must still read them and find the same
/// answers. The expected values are written out here, as they were read when the journals were
/// committed; they are never recomputed from the code, and the journals are never regenerated.
///
/// Only specific fields and counts are compared, never whole outputs: new fact kinds, new JSON
/// fields and new check rules must not break these tests; a different answer must.
@Suite("golden journals of format 1.0", .timeLimit(.minutes(1)))
struct GoldenJournalTests {
    // Project fingerprints (truncated SHA-256 of the API keys).
    static let demoUS = "9e1f3d9d78320577"
    static let demoEU = "7ea1b232ba580c4e"
    static let alpha = "d35e4de5a0be47ce"    // golden-alpha-key-0001, us
    static let beta = "c2888e6f53a66b01"     // golden-beta-key-0002, eu
    static let gamma = "29a203fa7b6c9001"    // golden-gamma-key-0003, us

    /// The rules `check` had when the journals were committed; later versions may add more.
    static let checkRules = ["fifo-replay", "delivery-target", "chain-settles", "resolved-once", "disable-kept",
                             "attribution-after-clear", "module-order", "snapshot-agrees"]

    // MARK: - Running commands on a copy

    /// Runs `replay arguments… <copy of the golden journal>`.
    private func replay(_ arguments: [String], on name: String) throws -> ReplayRun {
        try GoldenJournals.replay(arguments, on: name)
    }

    /// Runs a `--json` command and parses its one JSON object.
    private func json(_ arguments: [String], on name: String, status: Int32 = 0,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONProbe {
        try GoldenJournals.json(arguments, on: name, status: status, sourceLocation: sourceLocation)
    }

    /// What `audit --json` says: the call rows and the summary.
    private struct Audit {
        var rows: [JSONProbe]
        var summary: JSONProbe

        /// Rows by `status`.
        var byStatus: [String: Int] {
            rows.reduce(into: [:]) { counts, row in counts[row["status"].string ?? "?", default: 0] += 1 }
        }

        /// Rows by the project the call went to and its status (`-` when it went nowhere).
        var byProject: [String: [String: Int]] {
            rows.reduce(into: [:]) { counts, row in
                counts[row["delivered_to"].string ?? "-", default: [:]][row["status"].string ?? "?", default: 0] += 1
            }
        }

        /// Rows by call name.
        var byName: [String: Int] {
            rows.reduce(into: [:]) { counts, row in counts[row["name"].string ?? "?", default: 0] += 1 }
        }
    }

    private func audit(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Audit {
        let run = try replay(["audit", "--json"], on: name)
        #expect(run.status == 0, "audit on \(name): \(run.error)", sourceLocation: sourceLocation)
        let lines = JSONProbe.lines(run.out)
        let summary = try #require(lines.last { $0["summary"].value != nil }, "no summary line", sourceLocation: sourceLocation)
        return Audit(rows: lines.filter { $0["call"].string != nil }, summary: summary["summary"])
    }

    /// `check --json`: exit 0, clean, and none of today's rules finds a violation.
    private func expectCheckClean(_ name: String, records: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try json(["check", "--json"], on: name, sourceLocation: sourceLocation)
        #expect(check["clean"].bool == true, sourceLocation: sourceLocation)
        #expect(check["records"].int == records, sourceLocation: sourceLocation)
        let rules = Dictionary(check["rules"].array.compactMap { rule in rule["rule"].string.map { ($0, rule) } },
                               uniquingKeysWith: { first, _ in first })
        for rule in Self.checkRules {
            #expect(rules[rule]?["violations"].int == 0, "rule \(rule)", sourceLocation: sourceLocation)
        }
        let text = try replay(["check"], on: name)
        #expect(text.status == 0, sourceLocation: sourceLocation)
        #expect(text.out.contains("no violation"), sourceLocation: sourceLocation)
    }

    /// The few fields of `state --at MOMENT --json` these tests pin.
    private struct Fold {
        var seq: Int?
        var live: String?
        var generation: Int?
        var email: String?
        var userID: String?
        var gateHeld: Int?
        var pendingCalls: Int?
        var queuedTasks: Int?
        var switchInFlight: String?
        var teardownStep: String?
        var journalEnded: Bool?
    }

    private func fold(_ name: String, at moment: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Fold {
        let document = try json(["state", "--at", moment, "--json"], on: name, sourceLocation: sourceLocation)
        let state = document["state"]
        return Fold(seq: document["at"]["seq"].int, live: state["live"]["project"].string, generation: state["live"]["generation"].int,
                    email: state["identity"]["email"].string, userID: state["identity"]["user_id"].string,
                    gateHeld: state["gate"]["held"].int, pendingCalls: state["pending_calls"]["count"].int,
                    queuedTasks: state["offline_queue"]["tasks"].int, switchInFlight: state["switch_chain"]["in_flight"]["switch"].string,
                    teardownStep: state["teardown"]["step"].string, journalEnded: document["journal_ended"].bool)
    }

    // MARK: - demo

    @Test("demo: verify, info, the fold, check and audit give the committed answers")
    func demo() throws {
        let name = "demo"
        let verify = try json(["verify", "--json"], on: name)
        #expect(verify["clean"].bool == true)
        #expect(verify["segments"].int == 1)
        #expect(verify["records"].int == 197)
        #expect(verify["torn_tail"].isNull)
        #expect(verify["corruption"].count == 0)
        #expect(try replay(["verify"], on: name).status == 0)

        let info = try json(["info", "--json"], on: name)
        #expect(info["id"].string == "CB43C6B5-A68E-4D7E-8176-5B055F8ED8A9")
        #expect(info["format"].string == "1.0")
        #expect(info["producer"].string == "engagement-sdk/0.1.0 linux-x86_64")
        #expect(info["snapshots"].int == 1)
        #expect(info["first_sequence"].int == 1)
        #expect(info["last_sequence"].int == 197)
        #expect(info["first_time"].string == "2025-11-24T16:00:00.000000Z")
        #expect(info["last_time"].string == "2025-11-24T16:00:58.300000Z")
        #expect(info["undecodable"].int == 0)
        #expect(info["kinds"]["callReceived"].int == 18)
        #expect(info["kinds"]["callResolved"].int == 18)
        #expect(info["kinds"]["switchStarted"].int == 2)
        #expect(info["kinds"]["switchLanded"].int == 2)
        #expect(info["kinds"]["attributionRefused"].int == 1)
        #expect(info["calls"]["switchProject"].int == 3)
        #expect(info["calls"]["track"].int == 4)

        // The end: back on US (the third instance), re-identified, nothing pending.
        let end = try fold(name, at: "197")
        #expect(end.journalEnded == true)
        #expect(end.live == Self.demoUS)
        #expect(end.generation == 3)
        #expect(end.email == "ada@example.com")
        #expect(end.gateHeld == 0)
        #expect(end.pendingCalls == 0)
        #expect(end.queuedTasks == 0)
        #expect(end.switchInFlight == nil)
        // Mid-switch to EU: the release step, three calls held at the gate.
        let mid = try fold(name, at: "94")
        #expect(mid.live == Self.demoUS)
        #expect(mid.generation == 1)
        #expect(mid.email == nil)
        #expect(mid.gateHeld == 3)
        #expect(mid.pendingCalls == 5)
        #expect(mid.switchInFlight == "s1")
        #expect(mid.teardownStep == "release instance")
        // By time: on EU (generation 2), between the switches.
        let eu = try fold(name, at: "2025-11-24T16:00:50Z")
        #expect(eu.live == Self.demoEU)
        #expect(eu.generation == 2)
        #expect(eu.switchInFlight == nil)

        try expectCheckClean(name, records: 197)

        let audit = try audit(name)
        #expect(audit.rows.count == 18)
        #expect(audit.summary["calls"].int == 18)
        #expect(audit.byStatus == ["delivered": 8, "applied": 9, "failed": 1])
        #expect(audit.byProject == [Self.demoUS: ["applied": 6, "delivered": 5], Self.demoEU: ["applied": 3, "delivered": 3],
                                    "-": ["failed": 1]])
        #expect(audit.rows.filter { $0["gate"].array.compactMap(\.string) == ["queued", "replayed"] }.count == 4)
        #expect(audit.rows.first { $0["status"].string == "failed" }?["name"].string == "setAttribution")
        #expect(audit.summary["requests_delivered"][Self.demoUS]["for_calls"].int == 6)
        #expect(audit.summary["requests_delivered"][Self.demoUS]["sdk_own"].int == 1)
        #expect(audit.summary["requests_delivered"][Self.demoEU]["for_calls"].int == 3)
        #expect(audit.summary["requests_delivered"][Self.demoEU]["sdk_own"].int == 1)
    }

    // MARK: - multi-segment

    @Test("multi-segment: eight segments with their snapshots; folds from a snapshot agree with the committed answers")
    func multiSegment() throws {
        let name = "multi-segment"
        let verify = try json(["verify", "--json"], on: name)
        #expect(verify["clean"].bool == true)
        #expect(verify["segments"].int == 8)
        #expect(verify["records"].int == 363)
        #expect(verify["torn_tail"].isNull)
        #expect(verify["corruption"].count == 0)

        let info = try json(["info", "--json"], on: name)
        #expect(info["id"].string == "0598FCD4-F93D-46F3-846B-DA27D1908E9A")
        #expect(info["format"].string == "1.0")
        #expect(info["snapshots"].int == 8)
        #expect(info["last_sequence"].int == 363)
        #expect(info["last_time"].string == "2025-11-24T16:00:43.900000Z")
        #expect(info["undecodable"].int == 0)
        #expect(info["kinds"]["callReceived"].int == 37)
        #expect(info["kinds"]["switchStarted"].int == 3)
        #expect(info["kinds"]["switchLanded"].int == 3)
        #expect(info["kinds"]["initialized"].int == 4)
        #expect(info["calls"]["logoutUser"].int == 2)
        #expect(info["calls"]["track"].int == 19)

        // The end: back on alpha (the fourth instance), logged out, one event held for an unknown user.
        let end = try fold(name, at: "363")
        #expect(end.journalEnded == true)
        #expect(end.live == Self.alpha)
        #expect(end.generation == 4)
        #expect(end.email == nil)
        #expect(end.userID == nil)
        #expect(end.gateHeld == 0)
        #expect(end.pendingCalls == 0)
        #expect(end.queuedTasks == 0)
        #expect(end.switchInFlight == nil)
        // On beta after its logout and a new email (a fold from the snapshot at 156).
        let beta = try fold(name, at: "183")
        #expect(beta.live == Self.beta)
        #expect(beta.generation == 2)
        #expect(beta.email == "grace@example.eu")
        #expect(beta.pendingCalls == 0)
        // Mid-switch to gamma, three calls held at the gate (from the snapshot at 206).
        let held = try fold(name, at: "212")
        #expect(held.live == Self.beta)
        #expect(held.switchInFlight == "s2")
        #expect(held.teardownStep == "release instance")
        #expect(held.gateHeld == 3)
        #expect(held.pendingCalls == 4)
        // Landed on gamma; the held setEmail replayed there.
        let gamma = try fold(name, at: "245")
        #expect(gamma.live == Self.gamma)
        #expect(gamma.generation == 3)
        #expect(gamma.email == "grace@example.com")
        #expect(gamma.gateHeld == 0)
        // By time: on beta with its user id.
        let byTime = try fold(name, at: "2025-11-24T16:00:19.5Z")
        #expect(byTime.seq == 155)
        #expect(byTime.live == Self.beta)
        #expect(byTime.userID == "user-42")
        #expect(byTime.journalEnded == false)

        try expectCheckClean(name, records: 363)

        let audit = try audit(name)
        #expect(audit.rows.count == 37)
        #expect(audit.summary["calls"].int == 37)
        #expect(audit.byStatus == ["delivered": 22, "applied": 15])
        #expect(audit.byProject == [Self.alpha: ["applied": 8, "delivered": 11], Self.beta: ["applied": 4, "delivered": 6],
                                    Self.gamma: ["applied": 3, "delivered": 5]])
        #expect(audit.byName["switchProject"] == 3)
        #expect(audit.byName["logoutUser"] == 2)
        #expect(audit.rows.filter { $0["gate"].array.compactMap(\.string) == ["queued", "replayed"] }.count == 3)
        #expect(audit.summary["requests_delivered"][Self.alpha]["for_calls"].int == 11)
        #expect(audit.summary["requests_delivered"][Self.alpha]["sdk_own"].int == 1)
        #expect(audit.summary["requests_delivered"][Self.beta]["for_calls"].int == 6)
        #expect(audit.summary["requests_delivered"][Self.beta]["sdk_own"].int == 0)
        #expect(audit.summary["requests_delivered"][Self.gamma]["for_calls"].int == 6)
        #expect(audit.summary["requests_delivered"][Self.gamma]["sdk_own"].int == 1)
    }

    // MARK: - crash-mid-switch

    @Test("crash-mid-switch: a torn tail (not corruption), a switch that started and never landed, calls left pending")
    func crashMidSwitch() throws {
        let name = "crash-mid-switch"
        let verify = try json(["verify", "--json"], on: name)
        #expect(verify["clean"].bool == true)
        #expect(verify["segments"].int == 3)
        #expect(verify["records"].int == 117)
        #expect(verify["corruption"].count == 0)
        #expect(verify["torn_tail"]["segment"].string == "segment-00000000000000000118.lz4")
        #expect(verify["torn_tail"]["offset"].int == 137)
        #expect(verify["torn_tail"]["sequence"].int == 118)
        let text = try replay(["verify"], on: name)
        #expect(text.status == 0)
        #expect(text.out.contains("torn tail"))

        let info = try json(["info", "--json"], on: name)
        #expect(info["id"].string == "ACE57E6F-2344-41FF-84A7-2D5C7A6DA84A")
        #expect(info["format"].string == "1.0")
        #expect(info["snapshots"].int == 2)
        #expect(info["last_sequence"].int == 117)
        #expect(info["last_time"].string == "2025-11-24T16:00:10.300000Z")
        #expect(info["undecodable"].int == 0)
        #expect(info["kinds"]["switchStarted"].int == 1)
        #expect(info["kinds"]["switchLanded"].value == nil)
        #expect(info["kinds"]["teardownStepBegan"].int == 7)
        #expect(info["kinds"]["teardownStepFinished"].int == 6)
        #expect(info["kinds"]["callReceived"].int == 21)
        #expect(info["kinds"]["callResolved"].int == 10)

        // Where the journal ends: still on alpha, the switch to beta in its release step, ten
        // calls at the gate, the disable in flight.
        let end = try fold(name, at: "117")
        #expect(end.journalEnded == true)
        #expect(end.live == Self.alpha)
        #expect(end.generation == 1)
        #expect(end.email == nil)
        #expect(end.switchInFlight == "s1")
        #expect(end.teardownStep == "release instance")
        #expect(end.gateHeld == 10)
        #expect(end.pendingCalls == 11)
        #expect(end.queuedTasks == 1)
        let state = try json(["state", "--at", "117", "--json"], on: name)["state"]
        #expect(state["switch_chain"]["in_flight"]["to"].string == "\(Self.beta) (eu)")
        #expect(state["offline_queue"]["by_project"][Self.alpha]["t8"]["request"].string == "POST users/disableDevice")
        // Before the switch: identified on alpha.
        let before = try fold(name, at: "70")
        #expect(before.live == Self.alpha)
        #expect(before.email == "ada@example.com")
        #expect(before.switchInFlight == nil)
        #expect(before.pendingCalls == 0)

        // What today's check says of it: no violation (the torn tail is reported, not a failure).
        try expectCheckClean(name, records: 117)

        let audit = try audit(name)
        #expect(audit.rows.count == 21)
        #expect(audit.summary["calls"].int == 21)
        #expect(audit.byStatus == ["delivered": 7, "applied": 3, "pending": 11])
        #expect(audit.byProject == [Self.alpha: ["applied": 3, "delivered": 7], "-": ["pending": 11]])
        #expect(audit.rows.filter { $0["gate"].array.compactMap(\.string) == ["queued"] }.count == 10)
        #expect(audit.rows.first { $0["name"].string == "switchProject" }?["status"].string == "pending")
        #expect(audit.summary["requests_delivered"][Self.alpha]["for_calls"].int == 7)
        #expect(audit.summary["requests_delivered"][Self.alpha]["sdk_own"].int == 0)
    }

    // MARK: - The files themselves

    @Test("the committed files are all there, and the commands leave a copy's bytes as they were", arguments: [
        ("demo", ["segment-00000000000000000001.idx", "segment-00000000000000000001.lz4"]),
        ("multi-segment", ["1", "56", "107", "156", "206", "257", "305", "353"].flatMap { first in
            let base = "segment-" + String(repeating: "0", count: 20 - first.count) + first
            return [base + ".idx", base + ".lz4"]
        }),
        ("crash-mid-switch", ["segment-00000000000000000001.idx", "segment-00000000000000000001.lz4",
                              "segment-00000000000000000061.idx", "segment-00000000000000000061.lz4",
                              "segment-00000000000000000118.lz4"]),
    ])
    func files(name: String, expected: [String]) throws {
        let directory = GoldenJournals.directory + "/" + name
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == expected.sorted())
        let committed = try names.map { try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)) }
        let copy = try GoldenJournals.copy(name)
        defer { GoldenJournals.remove(copy) }
        for arguments in [["verify"], ["check"], ["state", "--at", "100"], ["audit"]] {
            #expect(ReplayHarness.run(arguments + [copy]).status == 0, "\(arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy).sorted() == names)
        let after = try names.map { try Data(contentsOf: URL(fileURLWithPath: copy + "/" + $0)) }
        #expect(after == committed)
    }
}
