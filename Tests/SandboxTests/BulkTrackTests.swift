import Foundation
import Sandbox
import Testing

/// `events/trackBulk`: each event judged on its own, the answer's counts and lists, and the
/// events a project received, alone or in bulk.
@Suite("Bulk tracking", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct BulkTrackTests {
    private static func backend() throws -> SandboxBackend {
        try SandboxBackend(projects: [SandboxProject(name: "shop", apiKey: "shop-key", region: "us", disallowedEventNames: ["banned"])])
    }

    @Test func aBulkIsAcceptedWithItsRefusedNamesListedAndOnlyTheOthersDelivered() async throws {
        let backend = try Self.backend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let body = #"{"events":[{"email":"a@x.test","eventName":"first"},{"email":"a@x.test","eventName":"banned"},{"userId":"u-1","eventName":"third"}]}"#
        let response = try await client.post("events/trackBulk", region: "us", apiKey: "shop-key", body: body)
        #expect(response.status == 200)
        let answer = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(answer["successCount"] as? Int == 2)
        #expect(answer["failCount"] as? Int == 1)
        #expect(answer["disallowedEventNames"] as? [String] == ["banned"])

        let events = backend.deliveredEvents(project: "shop")
        #expect(events.map(\.eventName) == ["first", "third"])
        #expect(events.map(\.index) == [0, 2])
        #expect(events[0].email == "a@x.test" && events[1].userID == "u-1")
        #expect(events.allSatisfy { $0.request.endpoint == "events/trackBulk" })
    }

    @Test func aSingleTrackOfARefusedNameIsA400AndNotDelivered() async throws {
        let backend = try Self.backend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let refused = try await client.post("events/track", region: "us", apiKey: "shop-key", body: #"{"eventName":"banned"}"#)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("DisallowedEventName"))
        let fine = try await client.post("events/track", region: "us", apiKey: "shop-key", body: #"{"eventName":"fine"}"#)
        #expect(fine.status == 200)
        #expect(backend.deliveredEvents(project: "shop").map(\.eventName) == ["fine"])
    }

    @Test(arguments: [#"{}"#, #"{"events":{}}"#, #"{"events":[1,2]}"#, "not json"])
    func aBodyThatIsNotABulkIsA400(body: String) async throws {
        let backend = try Self.backend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let response = try await client.post("events/trackBulk", region: "us", apiKey: "shop-key", body: body)
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("InvalidJsonBody"))
        #expect(backend.deliveredEvents(project: "shop").isEmpty)
    }
}
