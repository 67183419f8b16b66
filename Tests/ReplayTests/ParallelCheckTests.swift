import Foundation
import Journal
@testable import ReplayKit
import SDK
import Testing

/// `replay check` and `replay diagnose` over segments decoded and folded side by side
/// (`--jobs J`): the rules and the diagnosis take the records in order, so violations and
/// switches that span segment boundaries come out byte for byte as from the walk in order; the
/// walk says which segments it folded alone, and the command notes on standard error when
/// `--jobs` could not split the journal.
@Suite("replay: check and diagnose over segments folded in parallel", .tags(.endToEnd), .serialized, .timeLimit(.minutes(3)))
struct ParallelCheckTests {
    typealias J = CraftedJournal

    static let questions: [[String]] = [["check"], ["check", "--json"], ["diagnose"], ["diagnose", "--json"]]

    /// Appends calls applied on US until the journal rolls to a new segment (with `snapshot`,
    /// or the fold); returns the snapshot's sequence. During a switch, appends clock jumps
    /// instead (facts a switch's diagnosis collects).
    @discardableResult
    static func fillSegment(_ journal: CraftedJournal, from number: inout UInt64, switching: Bool = false,
                            snapshot: ((SDKState) -> SDKState)? = nil) throws -> UInt64 {
        while true {
            if switching {
                try journal.append(.clockJumped(wall: journal.time, jumpMicroseconds: 5_000_000))
            } else {
                try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
                try journal.append(.gateDecided(call: J.call(number), decision: .executed(project: J.us.fingerprint)))
                try journal.append(.identityChanged(email: "user\(number)@example.com", userID: nil))
                try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
                number += 1
            }
            if try journal.rotate(snapshot: snapshot?(journal.state)) { return journal.lastSequence }
        }
    }

    /// A journal of many segments whose violations and switches span their boundaries: a call
    /// resolved in one segment and again in a later one, calls queued by a switch in one
    /// segment and replayed out of order in a later one after the landing, a snapshot that
    /// is not the fold of the facts before it, and a journal gap.
    static func makeJournal(_ path: String) throws {
        let journal = try CraftedJournal(directory: path, segmentBytes: 1024)
        try journal.appendLaunchOnUS()
        var number: UInt64 = 100
        try fillSegment(journal, from: &number)
        // resolved-once across a boundary: the second resolution names the first, segments before.
        try journal.append(.callReceived(J.received(2, .track(event: "x", dataFields: nil))))
        try journal.append(.gateDecided(call: J.call(2), decision: .executed(project: J.us.fingerprint)))
        try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.us.fingerprint)))
        try fillSegment(journal, from: &number)
        try fillSegment(journal, from: &number)
        try journal.appendUnfolded(.callResolved(call: J.call(2), outcome: .applied(project: J.us.fingerprint)))
        try fillSegment(journal, from: &number)
        // A switch to EU whose held calls are queued in one segment, replayed out of order in a later one.
        try journal.append(.callReceived(J.received(3, .switchProject(J.eu))))
        try journal.append(.switchRouted(switch: SwitchID(1), call: J.call(3), project: J.eu, routing: .started))
        try journal.append(.switchStarted(switch: SwitchID(1), from: J.us.fingerprint, to: J.eu))
        try journal.append(.callReceived(J.received(4, .setEmail("a@example.com"))))
        try journal.append(.gateDecided(call: J.call(4), decision: .queued(switch: SwitchID(1), position: 0, call: J.received(4, .setEmail("a@example.com")))))
        try journal.append(.callReceived(J.received(5, .track(event: "y", dataFields: nil))))
        try journal.append(.gateDecided(call: J.call(5), decision: .queued(switch: SwitchID(1), position: 1, call: J.received(5, .track(event: "y", dataFields: nil)))))
        try fillSegment(journal, from: &number, switching: true)
        try fillSegment(journal, from: &number, switching: true)
        try journal.append(.initialized(project: J.eu, generation: 2))
        try journal.append(.switchLanded(switch: SwitchID(1), project: J.eu.fingerprint, result: .switchedCleanly, reasons: []))
        try fillSegment(journal, from: &number, switching: true)
        try journal.append(.gateDecided(call: J.call(5), decision: .replayed(switch: SwitchID(1), project: J.us.fingerprint)))
        try journal.append(.gateDecided(call: J.call(4), decision: .replayed(switch: SwitchID(1), project: J.eu.fingerprint)))
        try journal.append(.callbacksDelivered(SwitchID(1)))
        // snapshot-agrees: a segment that begins with a snapshot the facts before it do not give,
        // reported at the record after it (one no rule reads), although a gap follows that;
        // then one that a gap right after it explains.
        let tampered = { (state: SDKState) -> SDKState in
            var tampered = state
            tampered.email = "someone-else@example.com"
            return tampered
        }
        let gap = JournalGap(lostFacts: 3, from: journal.time, to: journal.time, reason: "disk full")
        try fillSegment(journal, from: &number, snapshot: tampered)
        try journal.append(.networkReachable)
        try journal.append(.journalGap(gap))
        try fillSegment(journal, from: &number, snapshot: tampered)
        try journal.append(.journalGap(gap))
        try fillSegment(journal, from: &number)
        try journal.close()
    }

    /// The checker's findings, walking in order, and walking `jobs` segments side by side.
    static func checked(_ path: String, jobs: Int) throws -> (ContractChecker, SegmentFolds.Walked) {
        let checker = ContractChecker()
        let walked = try checker.consume(try JournalReader(directory: path), jobs: jobs)
        checker.finish(state: walked.state)
        return (checker, walked)
    }

    @Test("violations spanning segment boundaries: the same findings and bytes with --jobs 1 and 3, every segment folded alone")
    func violationsAcrossBoundaries() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.makeJournal(path)
        let reader = try JournalReader(directory: path)
        #expect(reader.segments.count >= 8, "segments: \(reader.segments.count)")
        #expect(SegmentFolds.canSplit(reader))

        let (alone, inOrder) = try Self.checked(path, jobs: 1)
        let (split, sideBySide) = try Self.checked(path, jobs: 3)
        #expect(inOrder.walkedInOrder && inOrder.segmentsAlone == 0)
        #expect(!sideBySide.walkedInOrder && sideBySide.segmentsAlone == reader.segments.count && sideBySide.segmentsInOrder == 0)
        for rule in [ContractRule.resolvedOnce, .fifoReplay, .deliveryTarget, .snapshotAgrees] {
            #expect((alone.counts[rule] ?? 0) > 0, "\(rule) seeded")
        }
        #expect(alone.counts[.snapshotAgrees] == 1)
        #expect(split.counts == alone.counts)
        #expect(split.records == alone.records)
        for rule in ContractRule.allCases {
            #expect(split.violations[rule]?.map(\.message) == alone.violations[rule]?.map(\.message), "\(rule)")
            #expect(split.violations[rule]?.map(\.sequences) == alone.violations[rule]?.map(\.sequences), "\(rule)")
        }
        // The second resolution names the first, in a segment before.
        let again = try #require(alone.violations[.resolvedOnce]?.first)
        let bases = reader.segments.map(\.baseSequence)
        #expect(again.sequences.count == 2 && bases.contains { again.sequences[0] < $0 && $0 <= again.sequences[1] })

        for question in Self.questions {
            let one = ReplayHarness.run(question + ["--jobs", "1", path])
            let three = ReplayHarness.run(question + ["--jobs", "3", path])
            #expect(!one.out.isEmpty, "\(question)")
            #expect(ParallelFoldTests.firstDifference(three.out.split(separator: "\n"), one.out.split(separator: "\n")) == nil, "\(question)")
            #expect(three.error == one.error && three.error.isEmpty, "\(question): \(three.error)")
            #expect(three.status == one.status && (question[0] != "check" || one.status == 1), "\(question)")
        }
        // The switch's report collects the clock jumps of the segments it spans.
        let diagnosis = ReplayHarness.run(["diagnose", "--jobs", "3", path])
        #expect(diagnosis.out.contains("clock"), "\(diagnosis.out)")
    }

    @Test("a journal of one segment is walked in order: --jobs 2 says so on standard error, the answer the same")
    func oneSegmentNote() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path)
        try journal.appendLaunchOnUS()
        try journal.close()
        #expect(try JournalReader(directory: path).segments.count == 1)
        for command in ["check", "diagnose", "audit", "recheck"] {
            let one = ReplayHarness.run([command, "--jobs", "1", path])
            let two = ReplayHarness.run([command, "--jobs", "2", path])
            let unasked = ReplayHarness.run([command, path])
            #expect(two.out == one.out && two.status == one.status, "\(command)")
            #expect(one.error.isEmpty && unasked.error.isEmpty, "\(command): \(one.error) \(unasked.error)")
            #expect(two.error == "replay \(command): --jobs 2: walked in order (the journal has one segment)\n", "\(command): \(two.error)")
        }
        let (_, walked) = try Self.checked(path, jobs: 2)
        #expect(walked.walkedInOrder && walked.segmentsInOrder == 1 && walked.segmentsAlone == 0)
    }
}
