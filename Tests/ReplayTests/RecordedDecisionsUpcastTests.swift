import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `RecordedDecisionsUpcast` on the golden journals of every format: it lifts exactly the
/// decisions a journal before 1.3 recorded in an older shape, to what today's `decide` makes,
/// and leaves every other decision, and every decision of 1.3, as recorded.
@Suite("recorded decisions lifted to today's shape", .timeLimit(.minutes(1)))
struct RecordedDecisionsUpcastTests {
    /// One input of a journal: its decisions as recorded and as today's `decide` makes them on the
    /// state folded from the records before it.
    struct Decided {
        var sequence: UInt64
        var input: Fact
        var recorded: [Fact] = []
        var today: [Fact]
        var lifted: [Fact] { RecordedDecisionsUpcast.lift(recorded, of: input) }
    }

    /// Every input of the golden journal `name` of format `version` (inputs of unknown kinds left out).
    static func inputs(of name: String, format version: String) throws -> [Decided] {
        let copy = try GoldenJournals.copy(name, format: version)
        defer { GoldenJournals.remove(copy) }
        let walk = try JournalWalk(reader: JournalReader(directory: copy))
        var inputs: [Decided] = []
        var open = false
        while let record = try walk.next() {
            switch record.content {
            case .fact(let fact) where Recheck.isInput(kind: record.kind):
                if case .unknown = fact {
                    open = false
                    break
                }
                var replica = walk.state
                inputs.append(Decided(sequence: record.sequence, input: fact, today: Array(replica.decide(fact, at: record.time).dropFirst())))
                open = true
            case .fact(let fact):
                if open { inputs[inputs.count - 1].recorded.append(fact) }
            case .snapshot, .unreadable:
                open = false
            }
            walk.fold(record)
        }
        return inputs
    }

    /// The golden journals before 1.3, and what the lift finds in them (their READMEs tell the
    /// stories): how many delivered bulks (each a run of `callResolved` in 1.1; one
    /// `callsResolved` from 1.2) and how many executed tracks whose event joined a bulk (each a
    /// `gateDecided` then its `eventBatched` before 1.3; the held calls a switch replays are
    /// decided `replayed`, not `executed`).
    static let before13: [(format: String, name: String, bulks: Int, joinedTracks: Int)] = [
        ("v1.1", "bulk-delivered", 2, 6),
        ("v1.1", "bulk-purged-at-switch", 0, 0),
        ("v1.2", "demo", 0, 0),
        ("v1.2", "data-fields", 0, 6),
    ]

    @Test("a journal before 1.3 decides as recorded because of the lift: each lifted input differs as written",
          arguments: before13)
    func liftsOldJournals(journal: (format: String, name: String, bulks: Int, joinedTracks: Int)) throws {
        let inputs = try Self.inputs(of: journal.name, format: journal.format)
        var bulks = 0
        var joinedTracks = 0
        for input in inputs where input.lifted != input.recorded {
            let place = "\(journal.format)/\(journal.name) seq \(input.sequence)"
            // Without the lift, recheck would report this input...
            #expect(input.recorded != input.today, "\(place)")
            // ...which the lift made shorter: several records became the one today's decide writes.
            switch input.input {
            case .transportCompleted(let completion):
                bulks += 1
                let run = input.recorded.filter { if case .callResolved = $0 { true } else { false } }
                #expect(run.count >= 2 && input.lifted.count == input.recorded.count - run.count + 1, "\(place)")
                #expect(input.lifted.contains(.callsResolved(task: completion.task, calls: run.flatMap(\.resolutions).map(\.call),
                                                             outcome: run[0].resolutions[0].outcome)), "\(place)")
            case .callReceived(let received):
                joinedTracks += 1
                #expect(input.lifted.count == input.recorded.count - 1, "\(place)")
                #expect(input.recorded.contains { $0.gateDecision?.call == received.id && !$0.isEventBatched }, "\(place)")
                #expect(input.lifted.contains { fact in
                    if case .eventBatched(_, let event, .some) = fact { event.call == received.id && event.body.isEmpty } else { false }
                }, "\(place)")
            default:
                Issue.record("\(place): lifted \(input.input)")
            }
        }
        #expect(bulks == journal.bulks && joinedTracks == journal.joinedTracks, "\(journal.format)/\(journal.name)")
        // With it, every input decides as recorded.
        for input in inputs {
            #expect(input.lifted == input.today, "\(journal.format)/\(journal.name) seq \(input.sequence): \(input.recorded)")
        }
    }

    @Test("journals of 1.0 and of 1.3 are left as recorded", arguments: [
        ("v1.0", "demo"), ("v1.0", "multi-segment"), ("v1.0", "crash-mid-switch"), ("v1.3", "demo"), ("v1.3", "data-fields"),
    ])
    func leavesOthers(format: String, name: String) throws {
        let inputs = try Self.inputs(of: name, format: format)
        #expect(inputs.count > 10)
        for input in inputs { #expect(input.lifted == input.recorded, "\(format)/\(name) seq \(input.sequence)") }
        if format == "v1.3" {
            // Today's decide makes exactly these records: the shapes the lift rewrites are never made.
            for input in inputs { #expect(input.today == input.recorded, "\(format)/\(name) seq \(input.sequence)") }
        }
    }

    @Test("recheck of a journal before 1.3: no differences, the lifted inputs folded as written, the state the plain fold's")
    func recheckFoldsAsWritten() throws {
        for (format, name, bulks, joinedTracks) in Self.before13 {
            let copy = try GoldenJournals.copy(name, format: format)
            defer { GoldenJournals.remove(copy) }
            let reader = try JournalReader(directory: copy)
            let walk = try JournalWalk(reader: reader)
            let recheck = Recheck(limit: 10)
            while let record = try walk.next() { try recheck.take(record, on: walk) }
            try recheck.finish(on: walk)
            let plain = try JournalWalk(reader: reader)
            while let record = try plain.next() { plain.fold(record) }
            #expect(recheck.mismatchCount == 0 && recheck.checked == recheck.inputs, "\(format)/\(name)")
            // A lifted input's decisions differ as written: its state is folded from its records.
            #expect((recheck.refolds > 0) == (bulks + joinedTracks > 0), "\(format)/\(name)")
            #expect(walk.state == plain.state, "\(format)/\(name)")
        }
    }

    // MARK: - The shapes it leaves alone

    static let task = TaskID(7)
    static let project = ProjectFingerprint(apiKey: "k")
    static func call(_ number: UInt8) -> CallID { CallID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, number))) }
    static let delivered = CallOutcome.delivered(project: project, status: 200)

    static func completion(refused: [RefusedEvent] = []) -> Fact {
        .transportCompleted(TransportCompletion(task: task, attempt: 1, outcome: .response(status: 200, code: nil, messageIDs: [], message: nil),
                                                refusedEvents: refused))
    }

    @Test("a delivered task: a run of two or more is lifted, with the first record's sequence; one alone, or after refused events, is not")
    func bulkRunShapes() {
        let run: [Fact] = [.taskCompleted(task: Self.task, outcome: .delivered(status: 200)),
                           .callResolved(call: Self.call(1), outcome: Self.delivered), .callResolved(call: Self.call(2), outcome: Self.delivered),
                           .callResolved(call: Self.call(3), outcome: Self.delivered), .taskDispatched(task: TaskID(8), attempt: 1)]
        let recorded = run.enumerated().map { (sequence: UInt64(10 + $0.offset), fact: $0.element) }
        let lifted = RecordedDecisionsUpcast.lift(recorded, of: Self.completion())
        #expect(lifted.map(\.sequence) == [10, 11, 14])
        #expect(lifted.map(\.fact) == [run[0], .callsResolved(task: Self.task, calls: [Self.call(1), Self.call(2), Self.call(3)], outcome: Self.delivered), run[4]])
        // One call left: today's decide writes a callResolved too.
        let alone = Array(run[0...1])
        #expect(RecordedDecisionsUpcast.lift(alone, of: Self.completion()) == alone)
        // Refused events: each call resolves on its own today as well.
        #expect(RecordedDecisionsUpcast.lift(run, of: Self.completion(refused: [RefusedEvent(index: 2, reason: "bad")])) == run)
        // Another task's completion, or the run not right after the delivery.
        #expect(RecordedDecisionsUpcast.lift(run, of: .transportCompleted(TransportCompletion(
            task: TaskID(9), attempt: 1, outcome: .response(status: 200, code: nil, messageIDs: [], message: nil)))) == run)
        let apart = [run[0], run[4]] + run[1...3]
        #expect(RecordedDecisionsUpcast.lift(apart, of: Self.completion()) == apart)
        // Outcomes that differ are not one resolution.
        let mixed = [run[0], run[1], .callResolved(call: Self.call(2), outcome: .delivered(project: Self.project, status: 201))]
        #expect(RecordedDecisionsUpcast.lift(mixed, of: Self.completion()) == mixed)
    }

    @Test("an executed track: its gateDecided directly before its own eventBatched is lifted; any other pair is not")
    func gateDecisionShapes() {
        let track = ReceivedCall(id: Self.call(1), caller: 1, call: .track(event: "a", dataFields: nil))
        let input = Fact.callReceived(track)
        let executed = Fact.gateDecided(call: Self.call(1), decision: .executed(project: Self.project))
        let batched = Fact.eventBatched(task: Self.task, event: BatchedEvent(call: Self.call(1), body: Array(#"{"eventName":"a"}"#.utf8)), executedOn: nil)
        let fused = Fact.eventBatched(task: Self.task, event: BatchedEvent(call: Self.call(1), body: []), executedOn: Self.project)
        #expect(RecordedDecisionsUpcast.lift([executed, batched], of: input) == [fused])
        // Something between them: today's decide records the decision on its own before it, too.
        let between: [Fact] = [executed, .timerSet(.moduleHookBound(hook: 1), due: JournalTime(microsecondsSince1970: 1)), batched]
        #expect(RecordedDecisionsUpcast.lift(between, of: input) == between)
        // Another call's event, another decision, another call kind, another input.
        let otherEvent = Fact.eventBatched(task: Self.task, event: BatchedEvent(call: Self.call(2), body: [1]), executedOn: nil)
        #expect(RecordedDecisionsUpcast.lift([executed, otherEvent], of: input) == [executed, otherEvent])
        let replayed = Fact.gateDecided(call: Self.call(1), decision: .replayed(switch: SwitchID(1), project: Self.project))
        #expect(RecordedDecisionsUpcast.lift([replayed, batched], of: input) == [replayed, batched])
        let purchase = Fact.callReceived(ReceivedCall(id: Self.call(1), caller: 1, call: .trackPurchase(total: 1, items: [], dataFields: nil)))
        #expect(RecordedDecisionsUpcast.lift([executed, batched], of: purchase) == [executed, batched])
        #expect(RecordedDecisionsUpcast.lift([executed, batched], of: Self.completion()) == [executed, batched])
    }
}


extension Fact {
    fileprivate var isEventBatched: Bool {
        if case .eventBatched = self { true } else { false }
    }
}
