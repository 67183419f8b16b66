import Simulation
import Testing
@testable import SDK

/// Every door bounded, over the real `EngineShell` in the simulator's world (``EngineStore``): a
/// call's size is checked before anything else about it, over every argument, so no mix of
/// problems journals an over-limit value; what the journal keeps of a rejected call is bounded
/// whatever the call held; the journal records on. No thread, no socket.
@Suite("Bounds (store)", .exhaustiveStore, .timeLimit(.minutes(1)))
struct BoundsStoreTests {
    /// 3 MiB of one letter.
    static let huge = String(repeating: "x", count: 3 << 20)

    /// The largest journal record among `facts` (each encoded as the journal records it).
    static func largestRecord(_ facts: [Fact]) -> Int {
        facts.map { FactCodec.payload(of: $0).count }.max() ?? 0
    }

    /// The calls journaled among `facts`.
    static func receivedCalls(_ facts: [Fact]) -> [PublicCall] {
        facts.compactMap { if case .callReceived(let received) = $0 { received.call } else { nil } }
    }

    /// The reasons journaled for rejected calls among `facts`.
    static func rejections(_ facts: [Fact]) -> [String] {
        facts.compactMap { if case .callRejected(_, let reason) = $0 { reason } else { nil } }
    }

    /// Calls over a limit that are unusable otherwise too, and the reason each is rejected for,
    /// by name (the calls are megabytes: a test's arguments are printed).
    static let overLimitAndUnusable: [String: (call: PublicCall, reason: String)] = [
        "track(\"bad\\u{1}\", dataFields: [x: 3 MiB])": (.track(event: "bad\u{1}", dataFields: ["x": .string(huge)]),
                                                     "dataFields: 3,145,736 bytes of JSON, at most 65,536"),
        "updateCart(items: [price NaN, name 3 MiB])": (.updateCart(items: [CommerceItem(id: "a", name: "first", price: .nan, quantity: 1),
                                                                           CommerceItem(id: "b", name: huge, price: 1, quantity: 1)]),
                                                       "items[1].name: 3,145,728 bytes, at most 1,024"),
        // A key over its limit whose value is not a finite number: the size, not the number.
        "updateUser(dataFields: [3 MiB key: NaN])": (.updateUser(dataFields: [huge: .number(.nan)], mergeNestedObjects: true),
                                                     "dataFields: 3,145,737 bytes of JSON, at most 65,536"),
        // An event name with a control character, and data nested deeper than any JSON sent
        // (and than the journal's codec reads back).
        "track(\"e\\u{7F}\", dataFields: [deep: 1,000 levels])": (.track(event: "e\u{7F}", dataFields: ["deep": nested(1_000)]),
                                                              "dataFields: nested more than 32 levels deep, at most 32"),
    ]

    @Test("a call over a limit and unusable otherwise is journaled by its name and size problem only, and rejected naming the field",
          arguments: overLimitAndUnusable.keys.sorted())
    func sizeBeforeEverythingElse(name: String) throws {
        let (call, reason) = try #require(Self.overLimitAndUnusable[name])
        let store = SwitchContractStoreTests.onA()
        let rejected = store.call(call)
        let after = store.call(.track(event: "after", dataFields: nil))
        store.settle()
        #expect(store.outcomes[rejected] == .failed(.rejected(reason)))
        #expect(store.outcomes[after] == .delivered(project: store.fingerprint(.A), status: 200), "the journal and the SDK go on")
        let facts = store.takeFactValues()
        #expect(Self.receivedCalls(facts).contains(.oversized(call.name, reason: reason)))
        #expect(Self.rejections(facts) == [reason])
        #expect(Self.largestRecord(facts) < 4_096, "no record carries the call's arguments")
        #expect(!store.journaledRecords().contains { $0.hasPrefix("unreadable") || $0.hasPrefix("journalGap") })
        store.expectEffects(where: \.isSend, ["send t1 attempt 1"])     // the call after it, never the rejected one
        store.expectRequests([
            #"A events/track {"createdAt":1764000002,"email":"ada@example.com","eventName":"after"}"#,
        ])
        store.skipEffects()            // the completions: checked through the outcomes
    }

    /// A data value nested `depth` levels deep (an array in an array …).
    static func nested(_ depth: Int) -> DataValue {
        var value = DataValue.null
        for _ in 0..<depth { value = .array([value]) }
        return value
    }

    @Test("a call with only other problems is within every limit: journaled whole, rejected naming the field, its reason bounded")
    func otherProblemsAreJournaledWhole() {
        let store = SwitchContractStoreTests.onA()
        // A key at its limit, under a path of keys at theirs: the reason names the path.
        var fields: [String: DataValue] = ["n": .number(.infinity)]
        for level in 0..<30 { fields = [String(repeating: "k", count: CallLimits.dataKeyBytes - 1) + "\(level % 10)": .object(fields)] }
        let call = PublicCall.track(event: "fine", dataFields: fields)
        let rejected = store.call(call)
        store.settle()
        guard case .failed(.rejected(let reason)) = store.outcomes[rejected] else {
            Issue.record("not rejected: \(String(describing: store.outcomes[rejected]))")
            return
        }
        #expect(reason.hasPrefix("dataFields.kkk"))
        #expect(reason.utf8.count <= FreeText.limit && reason.hasSuffix("…"), "the path is cut, not the record made large")
        let facts = store.takeFactValues()
        #expect(Self.receivedCalls(facts).count == 1)
        #expect(FactCodec.payload(of: .callRejected(call: rejected, reason: reason)).count < 2_048)
        #expect(Self.largestRecord(facts) < CallLimits.dataFieldsBytes + 1_024)
        store.expectEffects(where: \.isSend, [])
        store.skipEffects()            // the completion: checked through the outcome
    }

    @Test("while the user declined, a call over a limit is journaled by its reason, which rechecking keeps")
    func declinedOverLimitKeepsItsReason() {
        let store = SwitchContractStoreTests.onA()
        store.call(.setConsent(granted: false))
        let long = String(repeating: "e", count: CallLimits.identifierBytes + 1)
        let declined = store.call(.track(event: long, dataFields: ["plan": "gold"]))
        store.settle()
        #expect(store.outcomes[declined] == .discarded(.consentDeclined))
        let reason = "eventName: 257 bytes, at most 256"
        let journaled = Self.receivedCalls(store.takeFactValues())
        #expect(journaled.last == .oversized(.track, reason: reason))
        // The journaled form is a fixed point: decided again in the same state, it comes back as it is.
        #expect(store.state.journaledForm(of: .oversized(.track, reason: reason)) == .oversized(.track, reason: reason))
        #expect(store.state.journaledForm(of: .track(event: long, dataFields: ["plan": "gold"])) == .oversized(.track, reason: reason))
        #expect(store.state.journaledForm(of: .track(event: "short", dataFields: ["plan": "gold"])) == .track(event: "short", dataFields: ["plan": .null]))
        store.expectEffects(where: \.isSend, [])
        store.skipEffects()            // the completions: checked through the outcomes
    }
}
