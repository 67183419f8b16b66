import Foundation
import Journal
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 5: late work of an outgoing instance is refused, even after the next one started.
@Suite("Edges: late work of an outgoing instance", .timeLimit(.minutes(1)))
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

    /// A tracked link resolution the sandbox holds on the wire, started on the live project.
    static func heldResolution(_ harness: SDKHarness) async -> (ResponseHold, Eventually<UniversalLinkResult>) {
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("a/x1"))
        let late = Eventually<UniversalLinkResult>()
        harness.sdk.handleUniversalLink(link(harness), completion: late.completion)
        _ = await hold.waitUntilHeld(count: 1)
        return (hold, late)
    }

    @Test("a link resolution of A that comes back after the switch to B landed is refused and journaled; B's attribution stays the app's own")
    func lateResolutionAfterLandingIsRefused() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let (hold, late) = await Self.heldResolution(harness)
        _ = await sdk.outcome.switchProject(to: harness.eu)
        hold.release()
        let result = await late.value
        guard case .failed(.rejected(let reason)) = result.outcome else {
            Issue.record("expected a refusal, got \(result.outcome)")
            return
        }
        #expect(reason.contains("replaced"))
        #expect(sdk.attributionInfo == nil)
        await sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 1, templateID: 2, messageID: "eu-own"))
        #expect(sdk.attributionInfo?.messageID == "eu-own", "the app's own write after the landing is accepted")
        let facts = try harness.closedFacts()
        #expect(facts.contains { if case .staleResultRefused = $0 { true } else { false } })
        #expect(!facts.contains { if case .attributionChanged(let project, let info) = $0 { project == harness.eu.fingerprint && info?.messageID == "m-x1" } else { false } })
    }

    @Test("A -> B -> A: a resolution started by the first A instance is refused by the second, though A is live again")
    func generationsNotProjects() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let (hold, late) = await Self.heldResolution(harness)
        _ = await sdk.outcome.switchProject(to: harness.eu)
        _ = await sdk.outcome.switchProject(to: harness.us)
        hold.release()
        if case .failed = await late.value.outcome {} else { Issue.record("the first instance's late result was applied to the second") }
        #expect(sdk.attributionInfo == nil)
    }

    @Test("in-app messages fetched by an instance that was replaced (A -> B -> A) are not stored in the new one")
    func lateFetchIsRefused() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        try harness.sandbox.setInAppMessages(Data(#"[{"messageId":"stale-1"}]"#.utf8), project: "us")
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("inApp/getMessages"))
        sdk.fetchInAppMessages(completion: nil)
        #expect(await hold.waitUntilHeld(count: 1))
        _ = await sdk.outcome.switchProject(to: harness.eu)
        _ = await sdk.outcome.switchProject(to: harness.us)
        hold.release()
        await sdk.settle()
        #expect(sdk.inAppMessageIDs.isEmpty)
    }
}
