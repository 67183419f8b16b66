import FuzzHarness
import Testing
@testable import ReplayKit
@testable import SDKCore

/// replay's JSON of a call is derived from the call's declaration; the busiest call, `track`,
/// is written directly. These hold the two to the same members.
@Suite("A call's JSON from its declaration", .timeLimit(.minutes(1)))
struct FactJSONDeclarationTests {
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
}
