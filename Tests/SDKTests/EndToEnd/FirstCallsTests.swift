import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

@Suite("End to end: first calls", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct FirstCallsTests {
    @Test("initialize, identify, track: the request reaches the right project with its key, headers and body")
    func trackReachesProject() async throws {
        let harness = try SDKHarness()
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        let outcome = await harness.sdk.outcome.track("purchase_viewed", dataFields: ["sku": "A-1", "price": 9.5])
        #expect(outcome == .delivered(project: harness.us.fingerprint, status: 200))
        let requests = harness.received(by: "us")
        let track = try #require(requests.first { $0.endpoint == "events/track" })
        #expect(track.headers["api-key"] == SDKHarness.usKey)
        #expect(track.headers["content-type"] == "application/json")
        #expect(track.headers["sdk-version"] == EngagementSDK.version)
        #expect(track.headers["sent-at"] != nil)
        let body = try #require(track.jsonObject)
        #expect(body["email"] as? String == "ada@example.com")
        #expect(body["eventName"] as? String == "purchase_viewed")
        #expect((body["dataFields"] as? [String: Any])?["sku"] as? String == "A-1")
        #expect(harness.sdk.email == "ada@example.com")
        await harness.sdk.settle()
    }
}
