import Foundation
import FuzzHarness
import Journal
import Testing
@testable import ReplayKit
@testable import SDKCore

/// replay's JSON of a call is derived from the call's declaration; the busiest call, `track`,
/// is written directly. These hold the two to the same members.
@Suite("A call's JSON from its declaration", .timeLimit(.minutes(1)))
struct FactJSONDeclarationTests {
    @Test("every declared kind has a sample made from its declaration: each field's type has a sample, and it survives the codec")
    func samplesOfEveryKind() throws {
        for kind in FactKind.allCases {
            let sample = SampleFacts.sample(of: kind)
            #expect(sample.declaration?.kind == kind, "\(kind): a field's type has no sample in SampleFacts.Values")
            // Compared as bytes: a sample may hold NaN, which is not equal to itself.
            let payload = FactCodec.payload(of: sample)
            #expect(FactCodec.payload(of: try FactCodec.decode(kind: kind.rawValue, payload: payload)) == payload, "\(kind)")
        }
    }

    @Test("the direct JSON of a track call is the JSON its declaration gives")
    func trackFastPath() {
        let tracks = SampleCalls.all.filter { $0.name == .track } + [.track(event: "é \"q\"", dataFields: ["k": .array([1, "two", nil])])]
        #expect(tracks.count >= 3)
        for call in tracks {
            #expect(FactJSON.call(call) == JSONMemberTree.object { FactJSON.writeDeclared(call, into: &$0) })
        }
    }

    @Test("every declared call's JSON names it and holds a member for each argument")
    func everyCallRenders() {
        for call in SampleCalls.all {
            guard case .object(let members) = FactJSON.call(call) else {
                Issue.record("\(call.name): not an object")
                continue
            }
            #expect(members.first?.0 == "name")
            let keys = Set(members.map(\.0))
            for argument in call.declaration.arguments {
                if let key = argument.jsonKey { #expect(keys.contains(key.description), "\(call.name).\(argument.name)") }
            }
        }
    }

    /// Facts of the kinds written directly, in every shape: each sample call received, each
    /// gate decision, events joining a bulk with and without a body and a decision.
    static var busiestFacts: [Fact] {
        let call = CallID(UUID(uuidString: "00000000-0000-0000-0000-000000000007")!)
        let project = ProjectFingerprint(hex: "0011223344556677")!
        let received = SampleCalls.all.map { ReceivedCall(id: call, caller: 3, call: $0) }
        let decisions: [GateDecision] = [.executed(project: project), .inline(project: project), .replayed(switch: SwitchID(2), project: project),
                                         .refused] + received.prefix(3).map { .queued(switch: SwitchID(2), position: 1, call: $0) }
        let events = [BatchedEvent(call: call, body: []), BatchedEvent(call: call, body: Array(#"{"eventName":"e"}"#.utf8))]
        return received.map(Fact.callReceived) + decisions.map { .gateDecided(call: call, decision: $0) }
            + events.flatMap { event in [nil, project].map { Fact.eventBatched(task: TaskID(4), event: event, executedOn: $0) } }
    }

    @Test("the project a fact names for its label is the ProjectRef its declared values carry")
    func labelsFollowTheDeclarations() {
        let calls = SampleCalls.all.enumerated().map { index, call in
            Fact.callReceived(ReceivedCall(id: FixtureStory.callID(UInt64(index) + 1), caller: 1, call: call))
        }
        var named = 0
        for fact in SampleFacts.all + calls {
            var declared: ProjectRef?
            fact.forEachField { _, value in
                if case .project(let project) = value { declared = project }
                if case .receivedCall(let received) = value { declared = received.call.carriedProject }
            }
            let record = DecodedRecord(sequence: 1, time: JournalTime(microsecondsSince1970: 0), kind: FactCodec.kind(of: fact),
                                       payloadBytes: 0, content: .fact(fact))
            #expect(ProjectLabels.project(namedBy: record) == declared, "\(fact.declaration.map { "\($0.kind)" } ?? "unknown")")
            if declared != nil { named += 1 }
        }
        #expect(named >= 5, "initialize, switchProject, initialized, switchRouted and switchStarted name one")
    }

    @Test("the busiest kinds' direct JSON is the JSON their declarations give; every kind renders")
    func busiestFactsFastPath() {
        for fact in Self.busiestFacts + SampleFacts.all {
            #expect(FactJSON.members(fact).map(\.0) == JSONMemberTree.members { FactJSON.writeDeclared(fact, into: &$0) }.map(\.0))
            #expect(JSONValue.object(FactJSON.members(fact)) == .object(JSONMemberTree.members { FactJSON.writeDeclared(fact, into: &$0) }),
                    "\(FactCodec.kind(of: fact))")
        }
    }
}
