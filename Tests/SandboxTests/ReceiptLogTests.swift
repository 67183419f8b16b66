import Foundation
import Sandbox
import SDK
import Testing

/// The Sandbox's receipt log (docs/RECONCILE.md): a line per call a request carried, with the
/// project's key fingerprint as the SDK computes it, the backend's clock, the status answered per
/// call and the re-sends it deduped.
@Suite("Receipt log", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct ReceiptLogTests {
    @Test("a bulk's events each have a line; a refused event is answered 400; a re-send is a duplicate; requests without callId or key have none")
    func linesPerCall() async throws {
        let backend = try SandboxBackend(projects: [SandboxProject(name: "shop", apiKey: "shop-key", region: "us", disallowedEventNames: ["banned"])],
                                         clock: { Date(timeIntervalSince1970: 1_764_000_000.5) })
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let first = String(repeating: "a", count: 32)
        let second = String(repeating: "b", count: 32)
        let bulk = #"{"events":[{"callId":"\#(first)","email":"ada@example.com","eventName":"ok"},{"callId":"\#(second)","userId":"u-1","eventName":"banned"}]}"#
        for _ in 0..<2 {
            let answer = try await client.post("events/trackBulk", region: "us", apiKey: "shop-key", body: bulk, headers: ["Idempotency-Key": "key-1"])
            #expect(answer.status == 200)
        }
        _ = try await client.post("users/update", region: "us", apiKey: "shop-key", body: #"{"email":"ada@example.com"}"#)
        _ = try await client.post("events/track", region: "us", apiKey: "wrong-key", body: #"{"callId":"\#(first)","eventName":"x"}"#)

        let lines = backend.receiptLog().split(separator: "\n").map(String.init)
        let project = ProjectFingerprint(apiKey: "shop-key").hex
        let expected = { (id: String, user: String, status: Int, duplicate: Bool) in
            #"{"project":"\#(project)","region":"us","endpoint":"events/trackBulk","call_id":"\#(id)","idempotency_key":"key-1","user":"\#(user)","received_at":"2025-11-24T16:00:00.500000Z","status":\#(status),"duplicate":\#(duplicate)}"#
        }
        #expect(lines == [expected(first, "email:ada@example.com", 200, false), expected(second, "userId:u-1", 400, false),
                          expected(first, "email:ada@example.com", 200, true), expected(second, "userId:u-1", 400, true)])
        #expect(!backend.receiptLog().contains("shop-key"), "the key itself is never written")
    }
}
