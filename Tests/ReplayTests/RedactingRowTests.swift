import Foundation
import FuzzHarness
import Journal
import SDK
import Testing
@testable import ReplayKit

/// An NDJSON export writes a fact's members redacted straight from the fact
/// (``JournalExport/writeRowMembers(_:redactedBy:to:)``): the bytes must be those of redacting
/// the fact first and writing the redacted fact, for every kind of fact and every personal value.
@Suite("rows written redacted", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct RedactingRowTests {
    private static let hash = KeyedHash(key: Array("redacting rows, a test key".utf8))

    /// A redactor straight on the hash, and one through the export's memo of tokens.
    private static let redactors = [Redactor(hash: hash), Redactor(tokens: TokenMemo(hash))]

    private static func redactedThenWritten(_ content: DecodedRecord.Content, _ redactor: Redactor) -> String {
        let redacted: DecodedRecord.Content = switch content {
        case .fact(let fact): .fact(redactor.redact(fact))
        case .snapshot(let state): .snapshot(redactor.redact(state))
        case .unreadable: .unreadable(ExportWalk.unreadableReason)
        }
        return ScratchBytes.withScratch { output in
            JournalExport.writeRowMembers(redacted, to: &output)
            return String(decoding: output.written, as: UTF8.self)
        }
    }

    private static func writtenRedacting(_ content: DecodedRecord.Content, _ redactor: Redactor) -> String {
        ScratchBytes.withScratch { output in
            JournalExport.writeRowMembers(content, redactedBy: redactor, to: &output)
            return String(decoding: output.written, as: UTF8.self)
        }
    }

    private static func expectSame(_ content: DecodedRecord.Content, _ comment: @autoclosure () -> String) {
        for redactor in redactors {
            let expected = redactedThenWritten(content, redactor)
            let written = writtenRedacting(content, redactor)
            #expect(written == expected, "\(comment())")
        }
    }

    static let items = [CommerceItem(id: "i-1", name: "Coffee", price: 9.5, quantity: 2, sku: "s-1",
                                     dataFields: ["origin": "Lyon", "n": 3, "nested": ["deep": [true, nil, 1.25]]]),
                        CommerceItem(id: "i-2", name: "Tea", price: 0, quantity: 1)]
    static let data: [String: DataValue] = [
        "s": "ada@example.com", "i": -42, "big": .integer(.min), "d": 9.5, "whole": 3.0, "tiny": 1e-7, "t": true, "f": false,
        "none": nil, "list": ["a", 2, 2.5, false, nil, ["x"], ["k": "v", "j": 1]], "obj": ["b": "2", "a": ["z": 1]],
        "é-key": "ünïcode \"quoted\"\n", "": "",
    ]

    /// Every public call that carries something personal, and a few that carry nothing.
    static let calls: [PublicCall] = [
        .setEmail("ada@example.com"), .setEmail(nil), .setUserId("user-1"), .setUserId(nil), .updateEmail("new@example.com"),
        .updateUser(dataFields: data, mergeNestedObjects: true), .updateUser(dataFields: [:], mergeNestedObjects: false),
        .updateCart(items: items), .updateCart(items: []),
        .trackPurchase(total: 19.5, items: items, dataFields: data), .trackPurchase(total: .nan, items: [], dataFields: nil),
        .track(event: "viewed", dataFields: data), .track(event: "viewed", dataFields: nil), .track(event: "e", dataFields: ["index": 7]),
        .registerToken("apns-7f3c"),
        .trackPushOpen(PushOpen(campaignID: 1, templateID: nil, messageID: "m", appAlreadyRunning: true, dataFields: data)),
        .trackPushOpen(PushOpen(campaignID: nil, templateID: 2, messageID: "m", appAlreadyRunning: false)),
        .handlePush(payload: data), .handlePush(payload: [:]), .disableDevice, .logoutUser, .inAppClick(messageID: "m", url: "u"),
    ]

    static let failures: [CallFailure] = [
        .rejected("email 'x@y' is not valid"), .retriesExhausted("gave up after 'five' tries, to a@b.c"),
        .authentication("token 'abc' expired"), .httpStatus(400, code: "BadParams", message: "field 'email' is 'q@r.s'"),
        .httpStatus(500, code: nil, message: nil), .notInitialized,
    ]

    static let bodies: [[UInt8]] = [
        #"{"email":"ada@example.com","dataFields":{"n":3,"s":"t","d":9.5},"items":[{"price":9.5,"id":"x"}],"total":-0.25}"#,
        #"{"user":{"userId":"u-1","currentEmail":"c@d.e"},"token":"t-1","createdAt":17,"ok":true,"none":null}"#,
        #"[{"a":1.5e3},{"b":"2"}]"#, #"{ "spaced" : "json" }"#, "not json at all", "", #"{"unicode":"ü"}"#,
    ].map { Array($0.utf8) }

    /// Facts beyond the one sample per kind: each personal value in each place it can be.
    static var facts: [Fact] {
        let call = CallID(UUID(uuidString: "C00C66C2-9F09-45A9-8000-000000000003")!)
        let project = FixtureStory.us.fingerprint
        let time = FixtureStory.startTime
        var facts = SampleFacts.all
        facts += calls.map { .callReceived(ReceivedCall(id: call, caller: 1, call: $0)) }
        facts += calls.map { .unknownUserEventHeld(project: project, call: call, event: $0) }
        facts += calls.map { .gateDecided(call: call, decision: .queued(switch: SwitchID(1), position: 2, call: ReceivedCall(id: call, caller: 1, call: $0))) }
        facts += failures.flatMap { failure -> [Fact] in
            [.callResolved(call: call, outcome: .failed(failure)), .taskCompleted(task: TaskID(4), outcome: .failed(failure)),
             .callsResolved(task: TaskID(4), calls: [call], outcome: .failed(failure))]
        }
        facts += [
            .identityChanged(email: "ada@example.com", userID: "user-1"), .identityChanged(email: nil, userID: nil),
            .pushTokenChanged("apns-1"), .callRejected(call: call, reason: "userId 'u@v' is taken"),
            .attributionRefused(project: project, reason: "from 'a@b.c'"),
            .transportCompleted(TransportCompletion(task: TaskID(4), attempt: 1, outcome: .networkError("host 'h@i' unreachable"))),
            .transportCompleted(TransportCompletion(task: TaskID(4), attempt: 1,
                                                    outcome: .response(status: 400, code: "X", messageIDs: ["m"], message: "bad 'q@r'"),
                                                    refusedEvents: [RefusedEvent(index: 0, reason: "event 'x@y' refused")])),
            .journalGap(JournalGap(lostFacts: 1, from: time, to: time, reason: "lost 'a@b'")),
            .linkResolved(LinkResolution(job: 1, destination: nil, attribution: nil, failure: "link 'x@y' failed")),
            .moduleHookFinished(hook: 1, problem: "threw 'x@y'"), .moduleHookFinished(hook: 1, problem: nil),
            .moduleHookCompleted(ModuleHookCompletion(hook: 1, failure: "a@b")),
            .authTokenReceived(AuthTokenReceipt(request: 1, project: project, failure: "for 'a@b'")),
            .authRefreshFinished(project: project, request: 1, failure: "'x'"),
            .unknown(kind: 201, payload: []),
        ]
        for body in bodies {
            facts.append(.eventBatched(task: TaskID(4), event: BatchedEvent(call: call, body: body), executedOn: nil))
            facts.append(.taskQueued(DeliveryTask(id: TaskID(5), call: call, project: project, region: "us", endpoint: "https://e/",
                                                  path: "events/track", method: .post, query: "email=a%40b.c&count=10&flag",
                                                  body: body, createdAt: time)))
        }
        return facts
    }

    @Test("every kind of fact, and every personal value in it, comes out as redacting it first and writing it gives")
    func everyFact() {
        for fact in Self.facts {
            Self.expectSame(.fact(fact), "\(fact)")
        }
        Self.expectSame(.unreadable("truncated"), "unreadable")
    }

    @Test("the demo journal's records, snapshots included, come out as redacting them first and writing them gives")
    func demoJournal() async throws {
        let reader = try JournalReader(directory: await DemoFixture.shared.journal().journal)
        let walk = try JournalWalk(reader: reader)
        var compared = 0
        while let record = try walk.next() {
            Self.expectSame(record.content, "seq \(record.sequence)")
            walk.fold(record)
            compared += 1
        }
        #expect(compared > 100)
    }
}
