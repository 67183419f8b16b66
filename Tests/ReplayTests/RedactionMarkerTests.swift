import Foundation
import FuzzHarness
import Journal
import ReplayKit
import SDK
import Testing

/// Redaction that a new field cannot fool: every public call is made from its declaration with a
/// distinct marker in every argument, next to facts whose free text (a module's error, a server's
/// message, a step's warning, a link's query) carries markers too, and the fuzzer's sample of
/// every fact kind. Every redacted output (the journal copy, ndjson, the trace, the report made
/// from the copy, and the state) must hold no marker of a personal or free-text value, and every
/// identifier marker must stay.
@Suite("redaction markers", .timeLimit(.minutes(3)))
struct RedactionMarkerTests {
    /// What a personal or free-text value carries: it must never survive redaction.
    static let secret = "zqxsecret"
    /// What an identifier carries: it must survive.
    static let kept = "keepid"

    /// The markers handed out, by whether they must go (`secret`) or stay (`kept`).
    final class Markers: @unchecked Sendable { // used on the test's thread only
        var next = 0
        var identifiers: [String] = []
        func secret() -> String { next += 1; return "\(RedactionMarkerTests.secret)\(next)" }
        func identifier() -> String { next += 1; let marker = "\(RedactionMarkerTests.kept)\(next)"; identifiers.append(marker); return marker }
    }

    /// A value of `kind` whose every text is a marker.
    static func value(of kind: ArgumentKind, _ markers: Markers) -> ArgumentValue {
        switch kind {
        case .email: .text("\(markers.secret())@example.org")
        case .userID, .pushToken: .text(markers.secret())
        case .identifier: .text(markers.identifier())
        case .url, .link: .text("https://shop.example.com/offer?email=\(markers.secret())%40example.org&ref=\(markers.secret())#\(markers.secret())")
        case .reason: .text("rejected because \(markers.secret()) said so")
        case .dataFields: .dataFields(["plan": .string(markers.secret()), "nested": .object(["deep": .string(markers.secret())])])
        case .items: .items([CommerceItem(id: markers.identifier(), name: "Item", price: 2, quantity: 1, sku: nil,
                                          dataFields: ["gift": .string(markers.secret())])])
        case .messageCount: .count(3)
        case .amount: .amount(9.5)
        case .flag: .flag(true)
        case .project: .project(FixtureStory.us)
        case .pushOpen: .pushOpen(PushOpen(campaignID: 11, templateID: 12, messageID: markers.identifier(), appAlreadyRunning: true,
                                           dataFields: ["deep": .string(markers.secret())]))
        case .attribution: .attribution(AttributionInfo(campaignID: 21, templateID: 22, messageID: markers.identifier()))
        case .callName: .callName(.track)
        }
    }

    /// Every declared call, its arguments all markers.
    static func calls(_ markers: Markers) -> [PublicCall] {
        CallDeclaration.all.map { declaration in
            let values = declaration.arguments.map { value(of: $0.kind, markers) }
            guard let call = PublicCall(declaration, arguments: values) else { preconditionFailure("\(declaration.name) does not build") }
            return call
        }
    }

    /// Facts whose free text the world wrote, each with a marker.
    static func worldFacts(_ markers: Markers) -> [Fact] {
        let project = FixtureStory.us.fingerprint
        let call = CallID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
        return [
            .moduleHookFinished(hook: 1, problem: "could not flush the outbox of \(markers.secret())@example.org"),
            .moduleHookCompleted(ModuleHookCompletion(hook: 1, failure: "outbox of \(markers.secret()) is locked")),
            .teardownStepFinished(switch: SwitchID(1), step: .releaseInstance,
                                  outcome: .warning("inbox: could not flush the outbox of \(markers.secret())@example.org"), elapsedMicroseconds: 5),
            .switchLanded(switch: SwitchID(1), project: project, result: .switchedWithWarnings,
                          reasons: ["inbox: could not flush the outbox of \(markers.secret())"]),
            .transportCompleted(TransportCompletion(task: TaskID(1), attempt: 1,
                                                    outcome: .response(status: 400, code: "BadParams", messageIDs: [],
                                                                       message: "user \(markers.secret()) is unknown"))),
            .transportCompleted(TransportCompletion(task: TaskID(1), attempt: 1, outcome: .networkError("host \(markers.secret()).example.org not found"))),
            .callResolved(call: call, outcome: .failed(.httpStatus(400, code: "BadParams", message: "user \(markers.secret()) is unknown"))),
            .authTokenReceived(AuthTokenReceipt(request: 1, project: project, failure: "no session for \(markers.secret())")),
            .linkResolutionStarted(job: 1, call: call, url: "https://links.example.com/a/x?u=\(markers.secret())", project: project, generation: 1),
            .linkResolved(LinkResolution(job: 1, destination: "https://app.example.com/offer?email=\(markers.secret())#\(markers.secret())",
                                         attribution: nil, failure: nil)),
            .durabilityConfirmed(DurabilityConfirmation(request: 1, failure: "disk of \(markers.secret()) is full")),
            .switchCancelled(switch: SwitchID(2), reason: "cancelled by \(markers.secret())"),
        ]
    }

    /// A journal of `facts` (each call received), after a snapshot of the empty state.
    static func writeJournal(at path: String, calls: [PublicCall], facts: [Fact]) throws {
        var options = JournalOptions()
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 8, maxDelay: nil, synchronizesEachGroup: false)
        let writer = try JournalWriter(directory: path, options: options, snapshot: { _ in StateCodec.encode(SDKState()) })
        var time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        var number: UInt64 = 0
        for call in calls {
            number += 1
            let id = CallID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", number))!)
            var bundle = RecordBundle()
            FactCodec.append(.callReceived(ReceivedCall(id: id, caller: 1, call: call)), to: &bundle)
            _ = try writer.appendBundle(bundle, timestamp: time)
            time = time.advanced(byMilliseconds: 1)
        }
        for fact in facts {
            var bundle = RecordBundle()
            FactCodec.append(fact, to: &bundle)
            _ = try writer.appendBundle(bundle, timestamp: time)
            time = time.advanced(byMilliseconds: 1)
        }
        try writer.sync()
        try writer.close()
    }

    @Test("no personal or free-text marker survives any redacted output; identifiers do")
    func markers() throws {
        let markers = Markers()
        let calls = Self.calls(markers)
        let facts = Self.worldFacts(markers) + SampleFacts.all
        let root = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let journal = root + "/journal"
        try Self.writeJournal(at: journal, calls: calls, facts: facts)
        #expect(ReplayHarness.run(["timeline", journal]).out.contains(Self.secret), "the plain journal holds the markers")

        var outputs: [(String, String)] = []
        let copy = root + "/copy"
        let exported = ReplayHarness.run(["export", "--redact", "-o", copy, journal])
        #expect(exported.status == 0, "\(exported.error)")
        var raw = ""
        let cursor = try JournalReader(directory: copy).records()
        while let record = try cursor.next() { raw += String(decoding: record.payload, as: UTF8.self) }
        outputs.append(("journal copy", raw))
        outputs.append(("timeline of the copy", ReplayHarness.run(["timeline", copy]).out))
        outputs.append(("state of the copy", ReplayHarness.run(["state", "--at", "2030-01-01T00:00:00Z", "--json", copy]).out))
        let ndjson = root + "/rows.ndjson"
        #expect(ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", ndjson, journal]).status == 0)
        outputs.append(("ndjson", (try? String(contentsOfFile: ndjson, encoding: .utf8)) ?? ""))
        let trace = root + "/trace.json"
        #expect(ReplayHarness.run(["export", "--redact", "--format", "trace", "-o", trace, journal]).status == 0)
        outputs.append(("trace", (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""))
        let report = root + "/report.html"
        _ = ReplayHarness.run(["report", "-o", report, copy])   // exit 1: the journal breaks rules on purpose
        outputs.append(("report of the copy", (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""))

        for (name, text) in outputs {
            #expect(!text.isEmpty, "\(name) is empty")
            #expect(!text.contains(Self.secret), "\(name) holds a personal or free-text marker: …\(Self.context(of: Self.secret, in: text))…")
            #expect(!text.contains("ada@example.com"), "\(name) holds the sample facts' email")
        }
        for marker in markers.identifiers {
            #expect(outputs[0].1.contains(marker), "the identifier \(marker) is gone from the redacted copy")
            #expect(outputs[3].1.contains(marker), "the identifier \(marker) is gone from the ndjson")
        }
    }

    static func context(of needle: String, in text: String) -> String {
        guard let range = text.range(of: needle) else { return "" }
        let start = text.index(range.lowerBound, offsetBy: -80, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(range.upperBound, offsetBy: 40, limitedBy: text.endIndex) ?? text.endIndex
        return String(text[start..<end])
    }
}
