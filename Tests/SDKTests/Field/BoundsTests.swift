import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK
@testable import SDKCore

/// Bounded by construction: every argument has a limit, an oversized call is rejected at once
/// naming its field and limit, the journal keeps recording, and answers from the server are
/// bounded the same way.
@Suite("Field: bounded by construction", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct BoundsTests {
    @Test("an updateCart with a 3 MiB item name is rejected at once naming the field; the next call is journaled and delivered")
    func oversizedCallIsRejected() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let huge = String(repeating: "x", count: 3 << 20)
        let outcome = await sdk.outcome.updateCart(items: [CommerceItem(id: "sku-1", name: huge, price: 1, quantity: 1)])
        #expect(outcome == .failed(.rejected("items[0].name: 3,145,728 bytes, at most 1,024")))
        #expect(await sdk.outcome.track("after") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(sdk.journalFailure == nil, "the recorder stays on")
        sdk.shutdown()
        let cursor = try JournalReader(directory: harness.directory + "/journal").records(mode: .strict)
        var largest = 0
        var calls: [PublicCall] = []
        while let record = try cursor.next() {
            if !record.isSnapshot { largest = max(largest, record.payload.count) }
            if !record.isSnapshot, case .callReceived(let received) = try FactCodec.decode(kind: record.kind, payload: record.payload) {
                calls.append(received.call)
            }
        }
        #expect(largest < 4_096, "no record carries the 3 MiB")
        #expect(calls.contains(.oversized(.updateCart, reason: "items[0].name: 3,145,728 bytes, at most 1,024")))
        #expect(calls.contains(.track(event: "after", dataFields: nil)))
    }

    /// The largest record of the journal in `directory`, read strictly (no damage, no gap), and
    /// the calls it received.
    static func journaled(in directory: String) throws -> (largest: Int, calls: [PublicCall], gaps: Int) {
        let cursor = try JournalReader(directory: directory + "/journal").records(mode: .strict)
        var largest = 0
        var calls: [PublicCall] = []
        var gaps = 0
        while let record = try cursor.next() {
            guard !record.isSnapshot else { continue }
            largest = max(largest, record.payload.count)
            switch try FactCodec.decode(kind: record.kind, payload: record.payload) {
            case .callReceived(let received): calls.append(received.call)
            case .journalGap: gaps += 1
            default: break
            }
        }
        return (largest, calls, gaps)
    }

    @Test("a call over a limit and unusable otherwise (a control character, a NaN price) is rejected naming the size, journaled by its name and reason only; the journal records on")
    func sizeIsCheckedFirst() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let huge = String(repeating: "x", count: 3 << 20)
        let tracked = await sdk.outcome.track("bad\u{1}", dataFields: ["x": .string(huge)])
        #expect(tracked == .failed(.rejected("dataFields: 3,145,736 bytes of JSON, at most 65,536")))
        let cart = await sdk.outcome.updateCart(items: [CommerceItem(id: "a", name: "first", price: .nan, quantity: 1),
                                                        CommerceItem(id: "b", name: huge, price: 1, quantity: 1)])
        #expect(cart == .failed(.rejected("items[1].name: 3,145,728 bytes, at most 1,024")))
        // 5 MiB: past what one journal record holds, which made the call a journal gap.
        let larger = await sdk.outcome.track("bad\u{1}", dataFields: ["x": .string(String(repeating: "y", count: 5 << 20))])
        #expect(larger == .failed(.rejected("dataFields: 5,242,888 bytes of JSON, at most 65,536")))
        #expect(await sdk.outcome.track("after") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(sdk.journalFailure == nil, "the recorder stays on")
        sdk.shutdown()
        let journal = try Self.journaled(in: harness.directory)
        #expect(journal.largest < 4_096, "no record carries the megabytes")
        #expect(journal.gaps == 0)
        #expect(journal.calls.contains(.oversized(.track, reason: "dataFields: 3,145,736 bytes of JSON, at most 65,536")))
        #expect(journal.calls.contains(.oversized(.updateCart, reason: "items[1].name: 3,145,728 bytes, at most 1,024")))
        #expect(journal.calls.contains(.oversized(.track, reason: "dataFields: 5,242,888 bytes of JSON, at most 65,536")))
        #expect(journal.calls.last == .track(event: "after", dataFields: nil))
    }

    @Test("a project's label is bounded in bytes, a notification's name is journaled within its bound, retry rules out of range are rejected by name")
    func everyDoorBounded() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        // One character of 3 MB: an "a" and a million combining acute accents.
        let giant = "a" + String(repeating: "\u{301}", count: 1 << 20)
        #expect(giant.count == 1)
        var labelled = try #require(Project(apiKey: SDKHarness.usKey, label: "US " + giant, config: ProjectConfig(region: .us)))
        #expect(labelled.label == "US", "the giant character does not fit the label's bytes: left out")
        labelled.label = String(repeating: "é", count: 100)
        #expect(labelled.label?.utf8.count == 128 && labelled.label?.count == 64, "cut at a character boundary")
        labelled.label = giant
        #expect(labelled.label == nil)
        labelled.label = "US"
        #expect(await sdk.outcome.initialize(labelled) == .applied(project: harness.us.fingerprint))
        await sdk.outcome.setEmail("ada@example.com")
        #expect(Project(apiKey: String(repeating: "k", count: CallLimits.apiKeyBytes + 1)) == nil)
        #expect(Project(apiKey: "key\nInjected: header") == nil)

        sdk.notify(String(repeating: "n", count: 3 << 20))
        var spinning = ProjectConfig(region: .eu)
        spinning.retryPolicy.maxDelayMilliseconds = 0
        let switched = await sdk.outcome.initialize(try #require(Project(apiKey: SDKHarness.euKey, config: spinning)))
        #expect(switched == .failed(.rejected("retryPolicy.maxDelayMilliseconds 0 is outside 1...86400000")))
        #expect(await sdk.outcome.track("after") == .delivered(project: harness.us.fingerprint, status: 200))
        sdk.shutdown()
        let journal = try Self.journaled(in: harness.directory)
        #expect(journal.largest < 4_096)
        let notified = try harness.facts().compactMap { if case .notificationReceived(let name) = $0.fact { name } else { nil } }
        #expect(notified.count == 1 && notified[0].utf8.count <= CallLimits.notificationNameBytes && notified[0].hasSuffix("…"))
    }

    @Test("each argument's limit, named in its rejection", arguments: [
        (PublicCall.track(event: String(repeating: "e", count: 257), dataFields: nil), "eventName: 257 bytes, at most 256"),
        (.setEmail(String(repeating: "a", count: 250) + "@x.io"), "email: 255 bytes, at most 254"),
        (.setUserId(String(repeating: "u", count: 513)), "userId: 513 bytes, at most 512"),
        (.inAppClick(messageID: "m", url: "https://x/" + String(repeating: "p", count: 4_096)), "clickedUrl: 4,106 bytes, at most 4,096"),
        (.updateCart(items: Array(repeating: CommerceItem(id: "i", name: "n", price: 1, quantity: 1), count: 501)), "items: 501 items, at most 500"),
        (.track(event: "e", dataFields: [String(repeating: "k", count: 257): .integer(1)]), "dataFields key: 257 bytes, at most 256"),
        (.track(event: "e", dataFields: ["k": .string(String(repeating: "v", count: 16_385))]), "dataFields.k: 16,385 bytes, at most 16,384"),
        (.updateUser(dataFields: Dictionary(uniqueKeysWithValues: (0..<1_001).map { ("f\($0)", DataValue.integer(1)) }), mergeNestedObjects: true),
         "dataFields: 1,001 fields, at most 1,000"),
    ] as [(PublicCall, String)])
    func limitsNameTheField(call: PublicCall, reason: String) {
        #expect(CallValidation.problem(in: call)?.reason == reason)
        #expect(CallValidation.problem(in: call)?.isOverLimit == true)
    }

    @Test("an answer with more messages than were asked for keeps what was asked; the rest are dropped, and the input says how many")
    func answersAreBounded() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        let messages = (0..<150).map { #"{"messageId":"m\#($0)"}"# } + [#"{"messageId":"\#(String(repeating: "z", count: 300))"}"#]
        try harness.sandbox.setInAppMessages(Data(("[" + messages.joined(separator: ",") + "]").utf8), project: "us")
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        #expect(await sdk.outcome.fetchInAppMessages(count: 5) == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(sdk.inAppMessageIDs == ["m0", "m1", "m2", "m3", "m4"])
        let dropped = try harness.closedFacts().compactMap { fact -> Int? in
            if case .transportCompleted(let completion) = fact, completion.droppedMessageIDs > 0 { completion.droppedMessageIDs } else { nil }
        }
        #expect(dropped == [146])
    }

    @Test("a record over the journal's limit is a journaled gap that names the call, and the journal records on (a backstop: the limits keep every call well under it)")
    func recordTooLargeIsNotADeadJournal() async throws {
        let directory = TemporaryDirectory.uniquePath("too-large")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/journal", withIntermediateDirectories: true)
        var options = JournalOptions()
        options.rotation = .onRequest
        options.maxRecordBytes = 4_096                    // far below what CallLimits allows a call
        let writer = try JournalWriter(directory: directory + "/journal", options: options, snapshot: nil)
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "us", apiKey: SDKHarness.usKey, region: "us")])
        var configuration = SDKConfiguration(storageDirectory: directory, clock: ManualClock(), transport: PatientTransport(base: URLSessionTransport()),
                                             regionEndpoints: RegionEndpoints(us: sandbox.baseURL(region: "us"), eu: sandbox.baseURL(region: "eu")))
        configuration.recorderOverride = writer
        let sdk = try EngagementSDK(configuration: configuration)
        let us = Project(apiKey: SDKHarness.usKey, config: ProjectConfig(region: .us))!
        await sdk.outcome.initialize(us)
        await sdk.outcome.setEmail("ada@example.com")
        let large = await sdk.outcome.track("large", dataFields: ["blob": .string(String(repeating: "b", count: 8_000))])
        #expect(large == .delivered(project: us.fingerprint, status: 200), "the call itself is fine: only its record was refused")
        #expect(await sdk.outcome.track("after") == .delivered(project: us.fingerprint, status: 200))
        #expect(sdk.journalFailure == nil)
        sdk.shutdown()
        let cursor = try JournalReader(directory: directory + "/journal").records(mode: .strict)
        var gaps: [JournalGap] = []
        var tracked: [String] = []
        while let record = try cursor.next() {
            guard !record.isSnapshot else { continue }
            switch try FactCodec.decode(kind: record.kind, payload: record.payload) {
            case .journalGap(let gap): gaps.append(gap)
            case .callReceived(let received): if case .track(let name, _) = received.call { tracked.append(name) }
            default: break
            }
        }
        #expect(gaps.count == 1)
        #expect(gaps.first?.reason.contains("of the track call") == true && gaps.first?.reason.contains("over the journal's limit of 4096") == true,
                "\(gaps)")
        #expect(tracked == ["after"])
    }
}
