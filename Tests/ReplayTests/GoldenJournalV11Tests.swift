import Foundation
import Testing

/// The golden journals of journal format 1.1 (`Tests/Fixtures/journals/v1.1`, see its README),
/// read by today's `replay`, which writes 1.2: each bulk's calls were resolved one record each
/// there, and must still be. The expected values were read with the release that wrote the
/// journals, when they were committed; they are never recomputed from the code.
@Suite("golden journals of format 1.1", .timeLimit(.minutes(1)))
struct GoldenJournalV11Tests {
    static let project = "27280ae0d88f8564"

    /// Runs `replay arguments… <copy of the golden journal>`.
    private func replay(_ arguments: [String], on name: String) throws -> ReplayRun {
        try GoldenJournals.replay(arguments, on: name, format: "v1.1")
    }

    private func json(_ arguments: [String], on name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONProbe {
        try GoldenJournals.json(arguments, on: name, format: "v1.1", sourceLocation: sourceLocation)
    }

    /// The state's pending calls and queued tasks at `moment`.
    private func fold(_ name: String, at moment: String) throws -> (pending: Int?, tasks: Int?, live: String?) {
        let state = try json(["state", "--at", moment, "--json"], on: name)["state"]
        return (state["pending_calls"]["count"].int, state["offline_queue"]["tasks"].int, state["live"]["project"].string)
    }

    /// verify, info, check and recheck: clean, the committed counts, every decision re-made.
    private func expectReadAsWritten(_ name: String, records: Int, id: String, inputs: Int, callResolved: Int,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let verify = try json(["verify", "--json"], on: name, sourceLocation: sourceLocation)
        #expect(verify["clean"].bool == true && verify["records"].int == records, sourceLocation: sourceLocation)
        let info = try json(["info", "--json"], on: name, sourceLocation: sourceLocation)
        #expect(info["format"].string == "1.1", sourceLocation: sourceLocation)
        #expect(info["id"].string == id, sourceLocation: sourceLocation)
        #expect(info["producer"].string == "engagement-sdk/0.1.0 simulated", sourceLocation: sourceLocation)
        #expect(info["undecodable"].int == 0, sourceLocation: sourceLocation)
        #expect(info["kinds"]["callResolved"].int == callResolved, sourceLocation: sourceLocation)
        #expect(info["kinds"]["callsResolved"].value == nil, "1.1 has no callsResolved", sourceLocation: sourceLocation)
        let check = try replay(["check"], on: name)
        #expect(check.status == 0 && check.out.contains("no violation"), "\(check.out)", sourceLocation: sourceLocation)
        // Today's rules resolve a delivered bulk in one record; the rules these journals recorded do not.
        let recheck = try replay(["recheck"], on: name)
        #expect(recheck.status == 0, "\(recheck.out)", sourceLocation: sourceLocation)
        #expect(recheck.out.contains("\(inputs) of \(inputs) input(s) rechecked; every one decides as recorded"), "\(recheck.out)",
                sourceLocation: sourceLocation)
    }

    @Test("bulk-delivered: read as written; each bulk call delivered by its own record; recheck re-makes every decision")
    func bulkDelivered() throws {
        let name = "bulk-delivered"
        try expectReadAsWritten(name, records: 91, id: "00000000-0000-408F-8000-000000000001", inputs: 24, callResolved: 15)

        let audit = try replay(["audit", "--json"], on: name)
        #expect(audit.status == 0)
        let lines = JSONProbe.lines(audit.out)
        let tracks = lines.filter { $0["name"].string == "track" }
        #expect(tracks.map { $0["status"].string } == Array(repeating: "delivered", count: 9))
        #expect(tracks.map { $0["resolved_seq"].int } == [77, 78, 79, 80, 84, 85, 86, 87, 91])
        #expect(tracks.allSatisfy { $0["delivered_to"].string == Self.project })
        #expect(tracks.map { $0["tasks"].array.first?["path"].string } == Array(repeating: "events/trackBulk", count: 8) + ["events/track"])
        let summary = try #require(lines.last { $0["summary"].value != nil })["summary"]
        #expect(summary["calls"].int == 15)
        #expect(summary["shown"]["delivered"].int == 10)
        #expect(summary["shown"]["applied"].int == 5)
        #expect(summary["shown"]["pending"].int == 0)

        // Before t2's answer, after it (its four calls resolved), at the end.
        let before = try fold(name, at: "75"), after = try fold(name, at: "80"), end = try fold(name, at: "91")
        #expect(before.pending == 9 && before.tasks == 3)
        #expect(after.pending == 5 && after.tasks == 2)
        #expect(end.pending == 0 && end.tasks == 0 && end.live == Self.project)
    }

    @Test("bulk-purged-at-switch: read as written; the purge at s4 and the fold match; recheck re-makes every decision")
    func bulkPurgedAtSwitch() throws {
        let name = "bulk-purged-at-switch"
        try expectReadAsWritten(name, records: 237, id: "00000000-0000-400B-8000-000000000001", inputs: 42, callResolved: 16)

        let audit = try replay(["audit", "--json"], on: name)
        let summary = try #require(JSONProbe.lines(audit.out).last { $0["summary"].value != nil })["summary"]
        #expect(summary["calls"].int == 16)
        #expect(summary["shown"]["delivered"].int == 2)
        #expect(summary["shown"]["applied"].int == 14)
        #expect(summary["shown"]["pending"].int == 0)

        let batched = try fold(name, at: "150"), purged = try fold(name, at: "171"), end = try fold(name, at: "237")
        #expect(batched.pending == 5 && batched.tasks == 3)
        #expect(purged.pending == 4 && purged.tasks == 2)
        #expect(end.pending == 0 && end.tasks == 0 && end.live == "9e58a20d41e8265b")
    }
}
