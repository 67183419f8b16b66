import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

@Suite("recheck against today's decide", .timeLimit(.minutes(3)))
struct RecheckTests {
    typealias J = CraftedJournal

    @Test("a recorded decision today's rules would not make is reported with its sequence number")
    func mismatch() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path)
        try journal.appendLaunchOnUS()
        // setEmail: decide would change the identity; the journal says it went to another email.
        let input = try journal.append(.callReceived(J.received(2, .setEmail("ada@example.com"))))
        try journal.append(.gateDecided(call: J.call(2), decision: .executed(project: J.us.fingerprint)))
        let wrong = try journal.append(.identityChanged(email: "someone@example.com", userID: nil))
        try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.us.fingerprint)))
        // A later input that decides alike: the difference does not cascade.
        try journal.append(.callReceived(J.received(3, .setUserId("u-1"))))
        try journal.append(.gateDecided(call: J.call(3), decision: .executed(project: J.us.fingerprint)))
        try journal.append(.identityChanged(email: nil, userID: "u-1"))
        try journal.append(.callResolved(call: J.call(3), outcome: .applied(project: J.us.fingerprint)))
        try journal.close()

        let run = ReplayHarness.run(["recheck", path])
        #expect(run.status == 1)
        #expect(run.out.contains("input seq \(input) at"))
        #expect(run.out.contains("first difference at decision #2 (recorded seq \(wrong))"))
        #expect(run.out.contains("recorded: identityChanged email \"someone@example.com\""))
        #expect(run.out.contains("today:    identityChanged email \"ada@example.com\""))
        #expect(run.out.contains("recheck: 4 of 4 input(s) rechecked; 1 decide(s) differently"))
        let json = ReplayHarness.run(["recheck", "--json", path])
        #expect(json.out.contains("\"mismatches\":1"))
        #expect(json.out.contains("\"recorded_seq\":\(wrong)"))
    }

    @Test("a received call today's decide journals otherwise is a difference at the input itself (decision #0)")
    func inputJournaledOtherwise() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path)
        try journal.appendLaunchOnUS()
        // Recorded whole by a decide that looked for a control character before the sizes: today
        // the call is over its limit, and journaled by its name and reason only.
        let whole = PublicCall.track(event: "bad\u{1}", dataFields: ["x": .string(String(repeating: "x", count: 20_000))])
        let input = try journal.append(.callReceived(J.received(2, whole)))
        try journal.append(.callRejected(call: J.call(2), reason: "eventName contains a control character"))
        try journal.append(.callResolved(call: J.call(2), outcome: .failed(.rejected("eventName contains a control character"))))
        try journal.close()

        let run = ReplayHarness.run(["recheck", path])
        #expect(run.status == 1)
        #expect(run.out.contains("input seq \(input) at"))
        #expect(run.out.contains("first difference at decision #0, the input: today's decide journals it otherwise"))
        #expect(run.out.contains("today:    callReceived track (oversized: dataFields.x: 20,000 bytes, at most 16,384) (call 00000002)"),
                "\(run.out)")
        #expect(run.out.contains("recheck: 3 of 3 input(s) rechecked; 1 decide(s) differently"), "\(run.out)")
        let json = ReplayHarness.run(["recheck", "--json", path])
        #expect(json.out.contains("\"decision\":0"))
    }

    @Test("a journal decided while the user declined rechecks clean: its calls are in their journaled form, a fixed point")
    func declinedJournalRechecksClean() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path)
        try decided(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules())), into: journal)
        try decided(.callReceived(J.received(1, .initialize(J.us))), into: journal)
        try decided(.callReceived(J.received(2, .setConsent(granted: false))), into: journal)
        try decided(.callReceived(J.received(3, .updateUser(dataFields: ["city": "Lyon"], mergeNestedObjects: true))), into: journal)
        try decided(.callReceived(J.received(4, .track(event: String(repeating: "e", count: 300), dataFields: ["plan": "gold"]))), into: journal)
        try decided(.callReceived(J.received(5, .setEmail("ada@example.com"))), into: journal)
        try journal.close()

        let run = ReplayHarness.run(["recheck", path])
        #expect(run.status == 0, "\(run.out)")
        #expect(run.out.contains("every one decides as recorded"), "\(run.out)")
    }

    @Test("inputs of kinds from a newer SDK are skipped, not failed")
    func unknownInputs() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path)
        try journal.append(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules())))
        try journal.appendRaw(kind: 90, payload: [1, 2, 3])   // inputs are 16–31 and 80–95
        try journal.close()
        let run = ReplayHarness.run(["recheck", path])
        #expect(run.status == 0, "\(run.out)")
        #expect(run.out.contains("1 of 2 input(s) rechecked, 1 skipped"))
    }
    /// Appends `input` and the decisions today's `decide` makes for it, at the input's time.
    private func decided(_ input: Fact, into journal: CraftedJournal) throws {
        var replica = journal.state
        let produced = replica.decide(input, at: JournalTime(microsecondsSince1970: journal.time.microsecondsSince1970 + 1_000))
        try journal.append(produced[0], after: 1_000)
        for fact in produced.dropFirst() { try journal.append(fact, after: 0) }
    }

    @Test("deciding on the walk's own state reports what deciding on copies reports, and leaves the same state")
    func inPlaceMatchesCopies() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path, segmentBytes: 2048)
        try decided(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules())), into: journal)
        try decided(.callReceived(J.received(1, .initialize(J.us))), into: journal)
        for number in UInt64(2)..<120 {
            if number % 29 == 0 {
                // Decisions recorded a millisecond after the input, and one that differs.
                try journal.append(.callReceived(J.received(number, .setEmail("ada\(number)@example.com"))))
                try journal.append(.gateDecided(call: J.call(number), decision: .executed(project: J.us.fingerprint)))
                try journal.append(.identityChanged(email: "someone\(number)@example.com", userID: nil))
                try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            } else if number % 3 == 0 {
                try decided(.callReceived(J.received(number, .track(event: "screen_view", dataFields: nil))), into: journal)
            } else {
                try decided(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))), into: journal)
            }
            try journal.rotate()
        }
        try journal.close()
        let reader = try JournalReader(directory: path)
        #expect(reader.segments.count > 3)

        let copyWalk = try JournalWalk(reader: reader)
        let copies = Recheck(limit: 100)
        while let record = try copyWalk.next() {
            copies.consume(record, before: copyWalk.state)
            copyWalk.fold(record)
        }
        copies.finish()
        let walk = try JournalWalk(reader: reader)
        let inPlace = Recheck(limit: 100)
        while let record = try walk.next() { try inPlace.take(record, on: walk) }
        try inPlace.finish(on: walk)

        #expect(copies.mismatchCount == 4)
        #expect(inPlace.refolds > 0)
        #expect(inPlace.inputs == copies.inputs)
        #expect(inPlace.checked == copies.checked)
        #expect(inPlace.skipped == copies.skipped)
        #expect(inPlace.mismatchCount == copies.mismatchCount)
        #expect(inPlace.mismatches.map(\.lines) == copies.mismatches.map(\.lines))
        #expect(walk.state == copyWalk.state)
        #expect(walk.position?.sequence == copyWalk.position?.sequence)
    }
}
