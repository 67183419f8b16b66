import Foundation
import Journal
import SDKCore
import Testing

/// The golden journals of journal format 1.2 (`Tests/Fixtures/journals/v1.2`, see its README),
/// read by today's `replay`. The expected values were read with the release that wrote the
/// journals, when they were committed; they are never recomputed from the code. `data-fields`
/// holds data fields of every shape, in every place a call carries them (records, the gate in a
/// snapshot, held events, queued bodies): each must read back as the value the app passed.
@Suite("golden journals of format 1.2", .timeLimit(.minutes(1)))
struct GoldenJournalV12Tests {
    static let alpha = "d35e4de5a0be47ce"
    static let beta = "c2888e6f53a66b01"

    /// Runs `replay arguments… <copy of the golden journal>`.
    private func replay(_ arguments: [String], on name: String) throws -> ReplayRun {
        try GoldenJournals.replay(arguments, on: name, format: "v1.2")
    }

    private func json(_ arguments: [String], on name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONProbe {
        try GoldenJournals.json(arguments, on: name, format: "v1.2", sourceLocation: sourceLocation)
    }

    /// verify, info, check and recheck: clean, the committed counts, every decision re-made.
    private func expectReadAsWritten(_ name: String, records: Int, id: String, inputs: Int, callReceived: Int,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let verify = try json(["verify", "--json"], on: name, sourceLocation: sourceLocation)
        #expect(verify["clean"].bool == true && verify["records"].int == records, sourceLocation: sourceLocation)
        let info = try json(["info", "--json"], on: name, sourceLocation: sourceLocation)
        #expect(info["format"].string == "1.2", sourceLocation: sourceLocation)
        #expect(info["id"].string == id, sourceLocation: sourceLocation)
        #expect(info["producer"].string == "engagement-sdk/0.1.0 linux-x86_64", sourceLocation: sourceLocation)
        #expect(info["undecodable"].int == 0, sourceLocation: sourceLocation)
        #expect(info["kinds"]["callReceived"].int == callReceived, sourceLocation: sourceLocation)
        let check = try replay(["check"], on: name)
        #expect(check.status == 0 && check.out.contains("no violation"), "\(check.out)", sourceLocation: sourceLocation)
        let recheck = try replay(["recheck"], on: name)
        #expect(recheck.status == 0, "\(recheck.out)", sourceLocation: sourceLocation)
        #expect(recheck.out.contains("\(inputs) of \(inputs) input(s) rechecked; every one decides as recorded"), "\(recheck.out)",
                sourceLocation: sourceLocation)
    }

    @Test("demo: read as written; check and recheck clean; the audit's committed outcomes")
    func demo() throws {
        try expectReadAsWritten("demo", records: 198, id: "F8B7E7AB-F9F2-4D8C-ADC1-CED719F6DF34", inputs: 42, callReceived: 18)
        let audit = try replay(["audit", "--json"], on: "demo")
        let summary = try #require(JSONProbe.lines(audit.out).last { $0["summary"].value != nil })["summary"]
        #expect(summary["calls"].int == 18)
        #expect(summary["shown"]["delivered"].int == 8)
        #expect(summary["shown"]["applied"].int == 9)
        #expect(summary["shown"]["failed"].int == 1)
        #expect(summary["shown"]["pending"].int == 0)
    }

    @Test("data-fields: read as written; check and recheck clean; where each call went; the gate in the snapshot")
    func dataFieldsReadAsWritten() throws {
        let name = "data-fields"
        try expectReadAsWritten(name, records: 260, id: "1F04E52D-50FA-4851-AD2A-B09F1C820AC0", inputs: 63, callReceived: 43)

        let lines = JSONProbe.lines(try replay(["audit", "--json"], on: name).out)
        let summary = try #require(lines.last { $0["summary"].value != nil })["summary"]
        #expect(summary["calls"].int == 43)
        #expect(summary["shown"]["delivered"].int == 35)
        #expect(summary["shown"]["applied"].int == 8)
        #expect(summary["shown"]["pending"].int == 0)
        let tracks = lines.filter { $0["name"].string == "track" }
        #expect(tracks.count == 33)
        // The seven of the burst went in one bulk, answered at 79; the twenty held by the switch
        // replayed on beta: the first alone, nineteen in one bulk answered at 212.
        #expect(tracks.filter { $0["resolved_seq"].int == 79 }.count == 7)
        #expect(tracks.filter { $0["resolved_seq"].int == 212 }.count == 19)
        #expect(tracks.filter { $0["delivered_to"].string == Self.beta }.count == 21)

        // Held at 133 (the snapshot of the segment that begins there): the setEmail and the first
        // fourteen tracks, with the bytes the gate counted for them.
        let held = try json(["state", "--at", "133", "--json"], on: name)["state"]["gate"]
        #expect(held["held"].int == 15)
        #expect(held["bytes"].int == 4987)
        let end = try json(["state", "--at", "260", "--json"], on: name)["state"]
        #expect(end["pending_calls"]["count"].int == 0)
        #expect(end["live"]["project"].string == Self.beta)
    }

    @Test("data-fields: every data field reads back as the value the app passed, in records and in snapshots")
    func dataFieldsDecodeExactly() throws {
        let copy = try GoldenJournals.copy("data-fields", format: "v1.2")
        defer { GoldenJournals.remove(copy) }
        let cursor = try JournalReader(directory: copy).records(mode: .strict)
        var calls: [String: [String: DataValue]] = [:]
        var gated = 0, heldEvents = 0, others = 0
        while let record = try cursor.next() {
            if record.isSnapshot {
                let state = try StateCodec.decode(record.payload)
                for held in state.switching.gate {
                    try expectFields(of: held.call.call)
                    if case .track = held.call.call { gated += 1 }
                }
                for event in state.heldEvents { try expectFields(of: event.event); heldEvents += 1 }
                continue
            }
            switch try FactCodec.decode(kind: record.kind, payload: record.payload) {
            case .callReceived(let received):
                if case .track(let event, let fields) = received.call { calls[event] = fields ?? [:] }
                if try expectFields(of: received.call) { others += 1 }
            case .gateDecided(_, .queued(_, _, let received)):
                try expectFields(of: received.call)
            case .unknownUserEventHeld(_, _, let event):
                try expectFields(of: event)
            default:
                break
            }
        }
        #expect(calls.count == 33)
        #expect(calls["no_fields"] == [:])
        for index in 0..<8 {
            #expect(calls["burst_\(index)"] == ["i": .integer(Int64(index)), "ratio": .number(Double(index) + 0.5),
                                                "tags": ["a", "b"], "whole": .number(Double(index))])
        }
        // The snapshot at 133 holds the gate's fourteen tracks; the later ones the events held
        // for an unknown user (none: the logout's track came after the last snapshot).
        #expect(gated == 14)
        #expect(heldEvents == 0)
        // The purchase, both profile updates and the push open.
        #expect(others == 4)
    }

    /// Checks the data fields of `call` against what the story passed, by event name or call
    /// kind; true for a call other than a track.
    @discardableResult
    private func expectFields(of call: PublicCall, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let rich = GoldenJournalStories.richFields, whole = GoldenJournalStories.wholeNumberFields
        switch call {
        case .track(let event, let fields):
            let expected: [String: DataValue]? = switch event {
            case "anonymous_view", "rich": rich
            case "whole_numbers", "after_logout": whole
            case let held where held.hasPrefix("held_"): Int(held.dropFirst(5))! % 2 == 0 ? rich : whole
            default: fields
            }
            #expect(fields == expected, "\(event)", sourceLocation: sourceLocation)
            if let fields, expected == whole { expectWholeNumbers(fields, sourceLocation: sourceLocation) }
            return false
        case .trackPurchase(let total, let items, let fields):
            #expect(total == 29.5 && fields == rich, sourceLocation: sourceLocation)
            #expect(items.first?.dataFields == ["color": "blue", "size": 2, "weight": 0.35], sourceLocation: sourceLocation)
        case .updateUser(let fields, _):
            // The first update adds a plan to the whole numbers; the second sends the rich fields.
            let planned = fields["plan"] != nil
            #expect(fields == (planned ? whole.merging(["plan": "pro"]) { first, _ in first } : rich), sourceLocation: sourceLocation)
            if planned { expectWholeNumbers(fields, sourceLocation: sourceLocation) }
        case .trackPushOpen(let open):
            #expect(open.dataFields == ["deep": ["link": "app://golden"], "score": 0.75], sourceLocation: sourceLocation)
        default:
            return false
        }
        return true
    }

    /// Whole doubles stay doubles (not integers), and `-0.0` keeps its sign.
    private func expectWholeNumbers(_ fields: [String: DataValue], sourceLocation: SourceLocation) {
        guard case .number(let three) = fields["whole"], case .number(let zero) = fields["negativeZero"],
              case .number(let large) = fields["large"], case .integer(3) = fields["integer"],
              case .object(let inside) = fields["inside"], case .number(let hundred) = inside["alsoWhole"] else {
            Issue.record("whole numbers read back as \(fields)", sourceLocation: sourceLocation)
            return
        }
        #expect(three == 3 && zero == 0 && zero.sign == .minus && large == 1e15 && hundred == 100, sourceLocation: sourceLocation)
    }
}
