import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

/// Issue item 6: relaunch edge cases, and a project as the pair of key and configuration.
@Suite("Edges: relaunch and configuration", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct RelaunchTests {
    /// A journal left on US with ada identified, and the SDK opened on it again (not initialized).
    /// The first harness owns the directory: keep it alive.
    static func relaunchedOnUS() async throws -> (first: SDKHarness, relaunched: SDKHarness) {
        let first = try SDKHarness()
        await first.sdk.outcome.initialize(first.us)
        await first.sdk.outcome.setEmail("ada@example.com")
        first.sdk.shutdown()
        let relaunched = try SDKHarness(directory: first.directory, sandbox: first.sandbox, clock: first.clock,
                                        ids: SequentialIDs(startingAt: 1_000), keepsDirectory: true)
        return (first, relaunched)
    }

    @Test("after a relaunch on A, switchProject(A) before initialize starts the instance; later calls are delivered")
    func switchToLiveProjectBeforeInitialize() async throws {
        let (first, relaunched) = try await Self.relaunchedOnUS()
        #expect(await relaunched.sdk.outcome.switchProject(to: relaunched.us) == .switchedCleanly)
        #expect(relaunched.sdk.email == "ada@example.com", "starting the instance it was on keeps the identity")
        #expect(await relaunched.sdk.outcome.track("after-relaunch") == .delivered(project: relaunched.us.fingerprint, status: 200))
        relaunched.sdk.shutdown()
        _ = first
    }

    @Test("after a relaunch on A, initialize with A's key and another configuration is a switch at launch: the old identity is not carried over")
    func initializeSameKeyOtherConfigAfterRelaunch() async throws {
        let (first, relaunched) = try await Self.relaunchedOnUS()
        let viaProxy = Project(apiKey: SDKHarness.usKey, config: ProjectConfig(region: .custom(first.sandbox.baseURL(region: "us"))))!
        #expect(await relaunched.sdk.outcome.initialize(viaProxy) == .applied(project: viaProxy.fingerprint))
        #expect(relaunched.sdk.email == nil)
        #expect(relaunched.sdk.engineView()?.state.live?.region == "custom")
        relaunched.sdk.shutdown()
        _ = first
    }

    @Test("the live key with another configuration is a real switch, journaled as such, never a silent no-op")
    func sameKeyOtherConfigIsASwitch() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let viaProxy = Project(apiKey: SDKHarness.usKey, label: "US via proxy",
                               config: ProjectConfig(region: .custom(harness.sandbox.baseURL(region: "us"))))!
        #expect(await sdk.outcome.switchProject(to: viaProxy) == .switchedWithWarnings)
        #expect(sdk.email == nil, "a switch clears the identity")
        let state = try #require(sdk.engineView()?.state)
        #expect(state.live?.region == "custom" && state.live?.label == "US via proxy")
        #expect(await sdk.outcome.switchProject(to: viaProxy) == .switchedCleanly, "the same key and configuration again is a no-op")
        let facts = try harness.closedFacts()
        #expect(SwitchContractTests.routings(facts) == [.started, .noop])
    }
}
