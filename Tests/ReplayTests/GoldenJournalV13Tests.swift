import Foundation
import Journal
import SDKCore
import Testing

/// The golden journals of journal format 1.3 (`Tests/Fixtures/journals/v1.3`, see its README),
/// read by today's `replay`. The expected values were read with the release that wrote the
/// journals; they are never recomputed from the code. Format 1.4 added a user to every task:
/// read from 1.3, a task names the user its body names, and today's `decide` re-makes every
/// recorded decision.
@Suite("golden journals of format 1.3", .timeLimit(.minutes(1)))
struct GoldenJournalV13Tests {
    private func replay(_ arguments: [String], on name: String) throws -> ReplayRun {
        try GoldenJournals.replay(arguments, on: name, format: "v1.3")
    }

    private func json(_ arguments: [String], on name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONProbe {
        try GoldenJournals.json(arguments, on: name, format: "v1.3", sourceLocation: sourceLocation)
    }

    @Test("each journal reads as written: verify, info, check and recheck clean; the audit's committed outcomes",
          arguments: [("demo", 198, "51C1A4D5-BCAF-43DA-8DE9-41F37AB231FF", 42, 18, 8, 9, 1),
                      ("data-fields", 254, "6A1758CA-6E9E-4A79-8D63-74CB004D2040", 63, 43, 35, 8, 0)])
    func readAsWritten(_ expected: (name: String, records: Int, id: String, inputs: Int, calls: Int, delivered: Int, applied: Int, failed: Int)) throws {
        let name = expected.name
        let verify = try json(["verify", "--json"], on: name)
        #expect(verify["clean"].bool == true && verify["records"].int == expected.records)
        let info = try json(["info", "--json"], on: name)
        #expect(info["format"].string == "1.3")
        #expect(info["id"].string == expected.id)
        #expect(info["undecodable"].int == 0)
        #expect(info["kinds"]["callReceived"].int == expected.calls)
        let check = try replay(["check"], on: name)
        #expect(check.status == 0 && check.out.contains("no violation"), "\(check.out)")
        let recheck = try replay(["recheck"], on: name)
        #expect(recheck.status == 0, "\(recheck.out)")
        #expect(recheck.out.contains("\(expected.inputs) of \(expected.inputs) input(s) rechecked; every one decides as recorded"), "\(recheck.out)")
        let audit = try replay(["audit", "--json"], on: name)
        let summary = try #require(JSONProbe.lines(audit.out).last { $0["summary"].value != nil })["summary"]
        #expect(summary["calls"].int == expected.calls)
        #expect(summary["shown"]["delivered"].int == expected.delivered)
        #expect(summary["shown"]["applied"].int == expected.applied)
        #expect(summary["shown"]["failed"].int == expected.failed)
        #expect(summary["shown"]["pending"].int == 0)
    }
}
