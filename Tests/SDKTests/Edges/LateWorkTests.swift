import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 5, end to end: a tracked link resolved over URLSession by the Sandbox. That late work
/// of an outgoing instance is refused is asserted fact by fact in `LateWorkStoreTests`.
@Suite("Edges: late work of an outgoing instance", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct LateWorkTests {
    static func link(_ harness: SDKHarness, code: String = "x1", project: String = "us") -> URL {
        harness.sandbox.setTrackedLink(TrackedLink(code: code, project: project, destination: "https://shop.example.com/offer/\(code)",
                                                   campaignID: 31, templateID: 32, messageID: "m-\(code)"))
    }

    @Test("a tracked link resolves into its destination and attribution; any other link resolves to itself")
    func resolvesTrackedLinks() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let result = await sdk.outcome.handleUniversalLink(Self.link(harness))
        #expect(result.outcome == .applied(project: harness.us.fingerprint))
        #expect(result.destination == "https://shop.example.com/offer/x1")
        #expect(sdk.attributionInfo == AttributionInfo(campaignID: 31, templateID: 32, messageID: "m-x1"))
        let plain = await sdk.outcome.handleUniversalLink(URL(string: "https://shop.example.com/plain")!)
        #expect(plain.outcome == .applied(project: harness.us.fingerprint) && plain.destination == "https://shop.example.com/plain")
    }
}
