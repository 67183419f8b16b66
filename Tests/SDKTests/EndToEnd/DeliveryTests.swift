import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

/// Delivery end to end over URLSession and the Sandbox: keys and regions the real backend
/// checks, JWT refresh, relaunches, bad input. Retries, failures and logout's purge are asserted
/// fact by fact, without threads, in `DeliveryStoreTests`.
@Suite("Delivery", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct DeliveryTests {
    @Test("a wrong key is a 401 the SDK does not retry; the server's message is kept, the key it quotes is not")
    func wrongKey() async throws {
        let harness = try SDKHarness()
        let bogus = Project(apiKey: "not-registered", config: ProjectConfig(region: .us))!
        await harness.sdk.outcome.initialize(bogus)
        await harness.sdk.outcome.setEmail("ada@example.com")
        #expect(await harness.sdk.outcome.track("x") == .failed(.httpStatus(401, code: "BadApiKey", message: "unknown API key <api key>")))
        let bytes = try harness.closedFacts().map { FactCodec.payload(of: $0) }.joined()
        #expect(!String(decoding: Array(bytes), as: UTF8.self).contains("not-registered"), "the key never enters the journal")
    }

    @Test("a key sent to the wrong region fails saying so: the outcome carries the backend's code and message")
    func wrongRegion() async throws {
        let harness = try SDKHarness()
        let misconfigured = Project(apiKey: SDKHarness.usKey, config: ProjectConfig(region: .eu))!
        await harness.sdk.outcome.initialize(misconfigured)
        await harness.sdk.outcome.setEmail("ada@example.com")
        #expect(await harness.sdk.outcome.track("x") == .failed(.httpStatus(401, code: "BadApiKey", message: "key for region us sent to region eu")))
    }

    @Test("a 401 for an expired JWT asks the provider for a fresh token and retries; the budget bounds it")
    func jwtRefresh() async throws {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: "jwt-key", region: "us", requiresJWT: true)])
        let harness = try SDKHarness(sandbox: sandbox)
        let issued = Counter()
        let provider = ClosureAuthProvider { completion in
            issued.increment()
            completion(.success(sandbox.issueJWT(project: "secure", subject: "ada")))
        }
        let project = Project(apiKey: "jwt-key", config: ProjectConfig(region: .us, authProvider: provider))!
        await harness.sdk.outcome.initialize(project)
        await harness.sdk.outcome.setEmail("ada@example.com")
        #expect(await harness.sdk.outcome.track("first") == .delivered(project: project.fingerprint, status: 200))
        sandbox.expireJWTs(project: "secure")
        #expect(await harness.sdk.outcome.track("after-expiry") == .delivered(project: project.fingerprint, status: 200))
        #expect(issued.value == 2)
        // An expiry the provider cannot cure: the budget (3 refreshes in a row for one request)
        // ends it; the earlier refresh, for another request, does not count against it.
        sandbox.inject(.jwtExpired, matching: .endpoint("events/track"), times: 10)
        guard case .failed(.authentication(let reason)) = await harness.sdk.outcome.track("doomed") else {
            Issue.record("expected an authentication failure")
            return
        }
        #expect(reason.contains("budget"))
        #expect(issued.value == 5)
    }

    @Test("a JWT project's disable kept across a relaunch on another project authenticates with the provider of a known project; without it, it waits aside and fails at the age limit, naming the missing provider", arguments: [true, false])
    func keptDisableAuthenticatesAfterRelaunch(known: Bool) async throws {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: "jwt-key", region: "us", requiresJWT: true),
                                                    SandboxProject(name: "us", apiKey: SDKHarness.usKey, region: "us")])
        let provider = ClosureAuthProvider { completion in completion(.success(sandbox.issueJWT(project: "secure", subject: "ada"))) }
        let secure = Project(apiKey: "jwt-key", config: ProjectConfig(region: .us, authProvider: provider))!
        let first = try SDKHarness(sandbox: sandbox)
        await first.sdk.outcome.initialize(secure)
        await first.sdk.outcome.setEmail("ada@example.com")
        await first.sdk.outcome.registerToken("tok")
        // The disable the switch queues is refused once: it waits for its retry (on the manual
        // clock, which stands still) when the app quits.
        sandbox.inject(.status(503), matching: .endpoint("users/disableDevice"), times: 1)
        #expect(await first.sdk.outcome.switchProject(to: first.us) == .switchedCleanly)
        await first.sdk.settle()                       // the 503 came back; the retry waits for its timer
        first.sdk.shutdown()

        let relaunched = try SDKHarness(directory: first.directory, sandbox: sandbox, clock: first.clock, keepsDirectory: true,
                                        knownProjects: known ? [secure] : [])
        await relaunched.sdk.outcome.initialize(relaunched.us)
        await relaunched.sdk.settle()
        relaunched.clock.advance(by: .seconds(60))     // the kept disable's retry falls due
        await relaunched.sdk.settle()
        let disabled = sandbox.requests(project: "secure").filter { $0.endpoint == "users/disableDevice" && $0.outcome == .accepted }
        #expect(disabled.count == (known ? 1 : 0))
        if !known {
            // The relaunched SDK's own project is not held up: its requests go meanwhile.
            await relaunched.sdk.outcome.setEmail("bob@example.com")
            #expect(await relaunched.sdk.outcome.track("meanwhile") == .delivered(project: relaunched.us.fingerprint, status: 200))
            relaunched.clock.advance(by: .seconds(7 * 86_400 + 60))
            await relaunched.sdk.settle()
            let failed = try relaunched.closedFacts().compactMap { fact -> String? in
                if case .taskCompleted(_, .failed(.authentication(let reason))) = fact { reason } else { nil }
            }
            #expect(failed.count == 1)
            #expect(failed.first.map { $0.hasPrefix("not sent within the age limit") && $0.contains("no auth provider for project") } == true,
                    "\(failed)")
        }
        relaunched.sdk.shutdown()
    }

    @Test("a restarted SDK rebuilds identity, project, queue and attribution, and resumes delivery")
    func restartResumes() async throws {
        let harness = try SDKHarness()
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        await harness.sdk.outcome.setAttributionInfo(AttributionInfo(campaignID: 4, templateID: 5, messageID: "m"))
        harness.sandbox.inject(.status(503), matching: .endpoint("events/track"), times: 3)
        for index in 0..<3 { harness.sdk.track("queued-\(index)", completion: nil) }
        await harness.sdk.outcome.flush()
        await harness.sdk.settle()

        let restarted = try harness.restarted()
        #expect(restarted.sdk.email == "ada@example.com")
        #expect(restarted.sdk.attributionInfo?.campaignID == 4)
        #expect(restarted.sdk.liveProject == harness.us.fingerprint)
        await restarted.sdk.outcome.initialize(restarted.us)
        await RandomStory.drain(restarted)
        #expect(restarted.eventNames(receivedBy: "us") == ["queued-0", "queued-1", "queued-2"])
    }

    @Test("bad input gets a clear, journaled rejection and never a crash", arguments: [
        ("non-finite number", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.track("e", dataFields: ["x": .number(.infinity)]) }),
        ("oversized payload", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.updateUser(dataFields: ["blob": .string(String(repeating: "x", count: 70_000))]) }),
        ("empty event name", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.track("") }),
        ("control character", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.registerToken("tok\u{0}en") }),
        ("not an email", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.setEmail("ada") }),
        ("negative quantity", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.updateCart(items: [CommerceItem(id: "a", name: "b", price: 1, quantity: -1)]) }),
        ("NaN total", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.trackPurchase(total: .nan, items: []) }),
        ("huge count", { @Sendable (sdk: EngagementSDK) async in await sdk.outcome.fetchInAppMessages(count: 1_000_000) }),
    ] as [(String, @Sendable (EngagementSDK) async -> CallOutcome)])
    func badInput(name: String, make: @Sendable (EngagementSDK) async -> CallOutcome) async throws {
        let harness = try SDKHarness()
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        guard case .failed(.rejected(let reason)) = await make(harness.sdk) else {
            Issue.record("\(name) was not rejected")
            return
        }
        #expect(!reason.isEmpty)
        let facts = try harness.closedFacts()
        #expect(facts.contains { if case .callRejected(_, reason) = $0 { true } else { false } })
        #expect(harness.received(by: "us").isEmpty)
    }
}

/// A thread-safe counter for test doubles.
final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

import Locking
import TestSupport
