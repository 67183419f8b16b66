import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

@Suite("redacted exports", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct RedactionTests {
    private let redactor = Redactor(hash: KeyedHash(key: Array("a test key, not random".utf8)))

    @Test("a redacted copy of every journal of 20 stories checks as clean as its original, and reconciles as it does")
    func copiesOfStoriesCheckClean() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stories = directory + "/stories"
        let simulated = ReplayHarness.run(["simulate", "--seeds", "20", "--steps", "150", "--keep", stories, "--receipt-logs"])
        #expect(simulated.status == 0, "\(simulated.out.suffix(600))")
        var segments = 0
        for seed in 1...20 {
            let journal = "\(stories)/\(seed)", copy = "\(directory)/copy-\(seed)"
            segments = max(segments, try JournalReader(directory: journal).segments.count)
            #expect(ReplayHarness.run(["export", "--redact", "-o", copy, journal]).status == 0)
            let check = ReplayHarness.run(["check", copy])
            #expect(check.out.hasSuffix("no violation\n"), "seed \(seed): \(check.out.suffix(600))")
            let logs = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".ndjson") }.map { journal + "/" + $0 }
            guard !logs.isEmpty else { continue }
            let original = ReplayHarness.run(["reconcile", journal, "--received"] + logs)
            let copied = ReplayHarness.run(["reconcile", copy, "--received"] + logs)
            #expect(copied.status == original.status, "seed \(seed): \(copied.error)")
            // The same verdicts (the holes' lines name each journal's own path and numbers).
            func totals(_ out: String) -> Substring? { out.split(separator: "\n").first { $0.contains(" call(s) in 1 journal(s)") } }
            #expect(totals(copied.out) != nil && totals(copied.out) == totals(original.out), "seed \(seed)")
        }
        #expect(segments > 4, "some stories rotate their journal: later snapshots are checked")
    }

    @Test("equal values give equal tokens; kinds and keys keep them apart")
    func tokens() {
        let first = redactor.redact(PublicCall.setEmail("ada@example.com"))
        let again = redactor.redact(PublicCall.setEmail("ada@example.com"))
        let other = redactor.redact(PublicCall.setEmail("grace@example.com"))
        #expect(first == again)
        #expect(first != other)
        guard case .setEmail(let token?) = first else { Issue.record("not a setEmail"); return }
        #expect(token.hasPrefix("email:") && !token.contains("ada"))
        // The same email in a request body becomes the same token.
        let body = redactor.redact(body: Array(#"{"email":"ada@example.com","eventName":"x"}"#.utf8))
        #expect(String(decoding: body, as: UTF8.self) == #"{"email":"\#(token)","eventName":"\#(redactor.token("x", "body"))"}"#)
    }

    @Test("data fields lose every value, keep their shape; bodies keep keys, numbers outside data fields")
    func shapes() throws {
        let call = PublicCall.track(event: "purchase", dataFields: ["sku": "A-1", "price": 9.5, "tags": ["a", 2], "gone": nil])
        guard case .track(let event, let fields?) = redactor.redact(call) else { Issue.record("not a track"); return }
        #expect(event == "purchase")
        #expect(fields["gone"] == .null)
        #expect(fields["price"] == .string(redactor.token("9.5", "data")))
        #expect(fields["tags"] == .array([.string(redactor.token("a", "data")), .string(redactor.token("2", "data"))]))
        let body = redactor.redact(body: Array(#"{"createdAt":17,"dataFields":{"n":3,"s":"t"},"user":{"userId":"u-1"}}"#.utf8))
        let parsed = try #require(JSONParser.parse(body))
        #expect(parsed.serialized() == JSONValue.object([
            ("createdAt", .integer(17)),
            ("dataFields", .object([("n", .string(redactor.token("3", "data"))), ("s", .string(redactor.token("t", "data")))])),
            ("user", .object([("userId", .string(redactor.token("u-1", "user")))])),
        ]).serialized())
        #expect(redactor.redact(query: "count=10&email=a%40b.c").hasPrefix("count=\(redactor.token("10", "body").replacingOccurrences(of: ":", with: "%3A"))&email=email%3A"))
        #expect(redactor.redact(text: "email 'not-an-address' is not an email address, from x@y.z")
                == "email '\(redactor.token("not-an-address", "text"))' is not an email address, from \(redactor.token("x@y.z", "text"))")
        #expect(redactor.redact(text: "the project's storage was cleared") == "the project's storage was cleared")
    }

    @Test("an exported journal holds none of the demo's personal data, reads back, and keeps the contract")
    func exportedJournal() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let output = ReplayHarness.temporaryDirectory() + "/copy"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let export = ReplayHarness.run(["export", "--redact", "-o", output, demo])
        #expect(export.status == 0, "\(export.error)")
        #expect(export.out.contains("wrote 198 redacted record(s)"))

        var raw = ""
        let cursor = try JournalReader(directory: output).records()
        while let record = try cursor.next() { raw += String(decoding: record.payload, as: UTF8.self) }
        for secret in ["ada@example", "apns-7f3c9a2e", "Lyon", "dark", "WELCOME10", "icon"] {
            #expect(!raw.contains(secret), "\(secret) survived the export")
        }
        #expect(raw.contains("cart_viewed"))   // event names are kept

        let check = ReplayHarness.run(["check", output])
        #expect(check.status == 0, "\(check.out)")
        let original = ReplayHarness.run(["audit", demo])
        let copy = ReplayHarness.run(["audit", output])
        #expect(copy.status == 0)
        #expect(copy.out == original.out)   // the audit shows no personal data: the same rows
        let timeline = ReplayHarness.run(["timeline", "--kind", "identityChanged", output])
        let tokens = timeline.out.split(separator: "\n").map { line in line.split(separator: "\"").dropFirst().first.map(String.init) ?? "" }
        #expect(tokens.count == 3)
        #expect(tokens[0] == tokens[2])   // ada@example.com, then again after the switch back
        #expect(tokens[0] != tokens[1])
    }

    @Test("export refuses without --redact, and an existing output")
    func refusals() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let plain = ReplayHarness.run(["export", "-o", "/tmp/x", demo])
        #expect(plain.status == 2)
        #expect(plain.error.contains("pass --redact"))
        let existing = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", demo, demo])
        #expect(existing.status == 2)
        #expect(existing.error.contains("already exists"))
    }
}
