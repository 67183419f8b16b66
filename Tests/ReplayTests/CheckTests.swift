import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `replay check` on crafted journals: each seeded violation is found, with the sequence numbers
/// that prove it; journals that keep the contract pass.
@Suite("check finds seeded violations", .timeLimit(.minutes(3)))
struct CheckTests {
    typealias J = CraftedJournal

    /// Writes a journal with `write`, runs `replay check --json` and returns the violations of
    /// `rule` with the run.
    private func check(_ rule: ContractRule, _ write: (CraftedJournal) throws -> Void) throws
        -> (run: ReplayRun, violations: [(message: String, sequences: [UInt64])], all: Int) {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path)
        try write(journal)
        try journal.close()
        let run = ReplayHarness.run(["check", "--json", path])
        let checker = try Self.violations(of: path)
        return (run, checker.violations[rule]?.map { ($0.message, $0.sequences) } ?? [], checker.counts.values.reduce(0, +))
    }

    /// The checker's findings on the journal at `path`.
    private static func violations(of path: String) throws -> ContractChecker {
        let walk = try JournalWalk(reader: try JournalReader(directory: path))
        let checker = ContractChecker()
        while let record = try walk.next() {
            checker.consume(record, before: walk.state)
            walk.fold(record)
        }
        checker.finish(state: walk.state)
        return checker
    }

    /// The start every crafted journal shares: the engine, then the SDK on US.
    private static func onUS(_ journal: CraftedJournal) throws {
        try journal.appendLaunchOnUS()
    }

    /// A switch to EU that starts now (routed, started); returns nothing.
    private static func startSwitchToEU(_ journal: CraftedJournal, call: UInt64 = 2) throws {
        try journal.append(.callReceived(J.received(call, .switchProject(J.eu))))
        try journal.append(.switchRouted(switch: SwitchID(1), call: J.call(call), project: J.eu, routing: .started))
        try journal.append(.switchStarted(switch: SwitchID(1), from: J.us.fingerprint, to: J.eu))
    }

    private static func land(_ journal: CraftedJournal, on project: ProjectRef, call: UInt64 = 2) throws {
        try journal.append(.initialized(project: project, generation: 2))
        try journal.append(.switchLanded(switch: SwitchID(1), project: project.fingerprint, result: .switchedCleanly, reasons: []))
    }

    @Test("a journal that keeps the contract passes every rule")
    func clean() throws {
        let result = try check(.fifoReplay) { journal in
            try Self.onUS(journal)
            try Self.startSwitchToEU(journal)
            try journal.append(.callReceived(J.received(3, .setEmail("a@example.com"))))
            try journal.append(.gateDecided(call: J.call(3), decision: .queued(switch: SwitchID(1), position: 0, call: J.received(3, .setEmail("a@example.com")))))
            try journal.append(.callReceived(J.received(4, .track(event: "x", dataFields: nil))))
            try journal.append(.gateDecided(call: J.call(4), decision: .queued(switch: SwitchID(1), position: 1, call: J.received(4, .track(event: "x", dataFields: nil)))))
            try Self.land(journal, on: J.eu)
            try journal.append(.gateDecided(call: J.call(3), decision: .replayed(switch: SwitchID(1), project: J.eu.fingerprint)))
            try journal.append(.callResolved(call: J.call(3), outcome: .applied(project: J.eu.fingerprint)))
            try journal.append(.gateDecided(call: J.call(4), decision: .replayed(switch: SwitchID(1), project: J.eu.fingerprint)))
            try journal.append(.taskQueued(J.task(1, call: 4, project: J.eu, path: "events/track")))
            try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.eu.fingerprint)))
            try journal.append(.taskCompleted(task: TaskID(1), outcome: .delivered(status: 200)))
            try journal.append(.callResolved(call: J.call(4), outcome: .delivered(project: J.eu.fingerprint, status: 200)))
        }
        #expect(result.run.status == 0, "\(result.run.out)")
        #expect(result.all == 0)
        #expect(result.run.out.contains("\"clean\":true"))
    }

    @Test("fifo-replay: a call replayed before one queued ahead of it")
    func fifo() throws {
        var sequences: [UInt64] = []
        let result = try check(.fifoReplay) { journal in
            try Self.onUS(journal)
            try Self.startSwitchToEU(journal)
            try journal.append(.callReceived(J.received(3, .setEmail("a@example.com"))))
            sequences.append(try journal.append(.gateDecided(call: J.call(3), decision: .queued(switch: SwitchID(1), position: 0, call: J.received(3, .setEmail("a@example.com"))))))
            try journal.append(.callReceived(J.received(4, .track(event: "x", dataFields: nil))))
            sequences.append(try journal.append(.gateDecided(call: J.call(4), decision: .queued(switch: SwitchID(1), position: 1, call: J.received(4, .track(event: "x", dataFields: nil))))))
            try Self.land(journal, on: J.eu)
            sequences.append(try journal.append(.gateDecided(call: J.call(4), decision: .replayed(switch: SwitchID(1), project: J.eu.fingerprint))))
            try journal.append(.gateDecided(call: J.call(3), decision: .replayed(switch: SwitchID(1), project: J.eu.fingerprint)))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.count == 1)
        #expect(result.violations.first?.sequences == sequences)
        #expect(result.violations.first?.message.contains("replayed before call 00000003") == true)
    }

    @Test("delivery-target: a call made during a switch replayed on the old project, one executed elsewhere than live")
    func deliveryTarget() throws {
        var replayedAt: UInt64 = 0
        var executedAt: UInt64 = 0
        let result = try check(.deliveryTarget) { journal in
            try Self.onUS(journal)
            try Self.startSwitchToEU(journal)
            try journal.append(.callReceived(J.received(3, .track(event: "x", dataFields: nil))))
            try journal.append(.gateDecided(call: J.call(3), decision: .queued(switch: SwitchID(1), position: 0, call: J.received(3, .track(event: "x", dataFields: nil)))))
            try Self.land(journal, on: J.eu)
            replayedAt = try journal.append(.gateDecided(call: J.call(3), decision: .replayed(switch: SwitchID(1), project: J.us.fingerprint)))
            try journal.append(.callResolved(call: J.call(3), outcome: .applied(project: J.eu.fingerprint)))
            try journal.append(.callReceived(J.received(4, .track(event: "y", dataFields: nil))))
            executedAt = try journal.append(.gateDecided(call: J.call(4), decision: .executed(project: J.us.fingerprint)))
            try journal.append(.callResolved(call: J.call(4), outcome: .applied(project: J.us.fingerprint)))
            try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.eu.fingerprint)))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.contains { $0.sequences.last == replayedAt && $0.message.contains("belonged to \(J.eu.fingerprint)") })
        #expect(result.violations.contains { $0.sequences.last == executedAt && $0.message.contains("executed on \(J.us.fingerprint)") })
    }

    @Test("chain-settles: a switch that lands elsewhere, leaving the SDK off the last requested project")
    func chainSettles() throws {
        var landedAt: UInt64 = 0
        let result = try check(.chainSettles) { journal in
            try Self.onUS(journal)
            try Self.startSwitchToEU(journal)
            try journal.append(.initialized(project: J.us, generation: 2))
            landedAt = try journal.append(.switchLanded(switch: SwitchID(1), project: J.us.fingerprint, result: .switchedCleanly, reasons: []))
            try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.us.fingerprint)))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.count == 2)
        #expect(result.violations.contains { $0.sequences == [landedAt] && $0.message.contains("landed on") })
        #expect(result.violations.contains { $0.message.contains("last switch request (s1)") })
    }

    @Test("resolved-once: a call resolved twice, and one stranded at the end")
    func resolvedOnce() throws {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var stranded: UInt64 = 0
        let result = try check(.resolvedOnce) { journal in
            try Self.onUS(journal)
            try journal.append(.callReceived(J.received(2, .setEmail("a@example.com"))))
            first = try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.us.fingerprint)))
            second = try journal.append(.callResolved(call: J.call(2), outcome: .applied(project: J.us.fingerprint)))
            stranded = try journal.append(.callReceived(J.received(3, .track(event: "lost", dataFields: nil))))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.count == 2)
        #expect(result.violations.contains { $0.sequences == [first, second] })
        #expect(result.violations.contains { $0.sequences == [stranded] && $0.message.contains("never resolved") })
    }

    @Test("resolved-once: a call's first resolution is still named after as many others as are remembered")
    func firstResolutionRemembered() {
        let checker = ContractChecker()
        checker.remember(J.call(1), resolvedAt: 7)
        for number in UInt64(2)..<UInt64(ContractChecker.rememberedResolutions + 2) {
            checker.remember(J.call(number), resolvedAt: number + 10)
        }
        checker.checkResolution(of: J.call(1), .applied(project: nil), at: 1_000_000, wasPending: false)
        let violations = checker.violations[.resolvedOnce] ?? []
        #expect(violations.map(\.sequences) == [[7, 1_000_000]])
        #expect(violations.first?.message.contains("resolved again (first at seq 7)") == true, "\(violations)")
    }

    @Test("resolved-once: a call still waiting on a queued task is legitimately pending")
    func legitimatelyPending() throws {
        let result = try check(.resolvedOnce) { journal in
            try Self.onUS(journal)
            try journal.append(.callReceived(J.received(2, .track(event: "x", dataFields: nil))))
            try journal.append(.gateDecided(call: J.call(2), decision: .executed(project: J.us.fingerprint)))
            try journal.append(.taskQueued(J.task(1, call: 2, project: J.us, path: "events/track")))
        }
        #expect(result.run.status == 0, "\(result.run.out)")
        #expect(result.violations.isEmpty)
    }

    @Test("disable-kept: a queued disableDevice task purged")
    func disableKept() throws {
        var queued: UInt64 = 0
        var purged: UInt64 = 0
        let result = try check(.disableKept) { journal in
            try Self.onUS(journal)
            queued = try journal.append(.taskQueued(J.task(1, call: nil, project: J.us, path: "users/disableDevice")))
            purged = try journal.append(.taskCompleted(task: TaskID(1), outcome: .discarded(.purgedBySwitch(SwitchID(1)))))
            try journal.append(.taskQueued(J.task(2, call: nil, project: J.us, path: "events/track")))
            try journal.append(.taskCompleted(task: TaskID(2), outcome: .discarded(.purgedByLogout)))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.count == 1)
        #expect(result.violations.first?.sequences == [queued, purged])
    }

    @Test("attribution-after-clear: written for a cleared project, and fine once it is live again")
    func attributionAfterClear() throws {
        var cleared: UInt64 = 0
        var written: UInt64 = 0
        let info = AttributionInfo(campaignID: 1, templateID: 2, messageID: "m")
        let result = try check(.attributionAfterClear) { journal in
            try Self.onUS(journal)
            cleared = try journal.append(.storageCleared(project: J.us.fingerprint, scope: .projectScoped))
            written = try journal.append(.attributionChanged(project: J.us.fingerprint, info: info))
            try journal.append(.initialized(project: J.us, generation: 2))
            try journal.append(.attributionChanged(project: J.us.fingerprint, info: info))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.count == 1)
        #expect(result.violations.first?.sequences == [cleared, written])
    }

    @Test("module-order: start before initialize, started twice, events after deinitialize")
    func moduleOrder() throws {
        var early: UInt64 = 0
        var twice: UInt64 = 0
        var late: UInt64 = 0
        let result = try check(.moduleOrder) { journal in
            try Self.onUS(journal)
            let us = J.us.fingerprint
            early = try journal.append(.moduleEventDelivered(module: "push", event: .start, project: us, generation: 1))
            try journal.append(.moduleEventDelivered(module: "push", event: .initialize, project: us, generation: 1))
            twice = try journal.append(.moduleEventDelivered(module: "push", event: .start, project: us, generation: 1))
            try journal.append(.moduleEventDelivered(module: "push", event: .deinitialize, project: us, generation: 1))
            late = try journal.append(.moduleEventDelivered(module: "push", event: .notification("foreground"), project: us, generation: 1))
            // A new generation starts over: no violation.
            try journal.append(.moduleEventDelivered(module: "push", event: .initialize, project: us, generation: 2))
            try journal.append(.moduleEventDelivered(module: "push", event: .start, project: us, generation: 2))
        }
        #expect(result.run.status == 1)
        #expect(result.violations.map(\.sequences) == [[early], [twice], [late]])
    }

    @Test("snapshot-agrees: a snapshot that is not the fold of the facts before it")
    func snapshotAgrees() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path, segmentBytes: 1024)
        try Self.onUS(journal)
        var rotated = false
        var number: UInt64 = 2
        while !rotated {
            try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
            try journal.append(.identityChanged(email: "user\(number)@example.com", userID: nil))
            try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            number += 1
            var tampered = journal.state
            tampered.email = "someone-else@example.com"
            rotated = try journal.rotate(snapshot: tampered)
        }
        let snapshotSequence = journal.lastSequence
        try journal.close()
        let checker = try Self.violations(of: path)
        #expect(checker.violations[.snapshotAgrees]?.map(\.sequences) == [[snapshotSequence]])
        #expect(checker.violations[.snapshotAgrees]?.first?.message.contains("identity.email") == true)
    }

    @Test("a journal of many segments with faithful snapshots passes")
    func manySegments() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path, segmentBytes: 1024)
        try Self.onUS(journal)
        for number in UInt64(2)..<200 {
            try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
            try journal.append(.gateDecided(call: J.call(number), decision: .executed(project: J.us.fingerprint)))
            try journal.append(.identityChanged(email: "user\(number)@example.com", userID: nil))
            try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            try journal.rotate()
        }
        try journal.close()
        #expect(try JournalReader(directory: path).segments.count > 5)
        let run = ReplayHarness.run(["check", path])
        #expect(run.status == 0, "\(run.out)")
    }
}
