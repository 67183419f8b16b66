import Foundation
import Journal
import Locking
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// What must happen, does, through the public API, URLSession and the Sandbox: a user whose
/// token cannot be had blocks no one else, hourly tokens last for days, an event's age is its
/// own, a refresh's failure ends only its own request.
@Suite("Field: liveness", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct LivenessTests {
    static let secureKey = "jwt-key"

    /// A sandbox with a JWT project whose tokens belong to their subject's requests (and, with
    /// `lifetime`, expire after it), on `clock`'s wall time.
    static func sandbox(lifetime: Duration? = nil, clock: ManualClock) throws -> SandboxBackend {
        try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: secureKey, region: "us", requiresJWT: true,
                                                     jwtSubjectMustMatchUser: true, jwtLifetime: lifetime)],
                           clock: { clock.wallClock.date })
    }

    /// The app's auth provider: asks its auth server (the sandbox's) for a token for the user,
    /// and says the user signed out when the server refuses them.
    static func provider(_ sandbox: SandboxBackend) -> ClosureAuthProvider {
        ClosureAuthProvider(forUser: { user, completion in
            if let user, let token = sandbox.requestJWT(project: "secure", subject: user.value) {
                completion(.success(token))
            } else {
                completion(.failure(AuthProviderError.userSignedOut))
            }
        })
    }

    static func secure(_ sandbox: SandboxBackend) -> Project {
        Project(apiKey: secureKey, config: ProjectConfig(region: .us, authProvider: provider(sandbox)))!
    }

    @Test("ada logs out offline and the app relaunches; bob signs in: his 20 events reach the project while the auth server refuses ada, whose disable fails naming why")
    func signedOutUserBlocksNoOne() async throws {
        let clock = ManualClock()
        let sandbox = try Self.sandbox(clock: clock)
        let secure = Self.secure(sandbox)
        sandbox.signIn("ada@example.com", project: "secure")
        let network = SwitchableNetwork(base: PatientTransport(base: URLSessionTransport()))
        let first = try SDKHarness(sandbox: sandbox, clock: clock, transport: network)
        await first.sdk.outcome.initialize(secure)
        await first.sdk.outcome.setEmail("ada@example.com")
        await first.sdk.outcome.registerToken("ada-device")
        network.goOffline()
        first.sdk.logoutUser()
        await first.sdk.settle()
        sandbox.signOut("ada@example.com", project: "secure")
        first.sdk.shutdown()
        // Call ids go on from the first launch's (the sandbox keys requests by them).
        let relaunched = try SDKHarness(directory: first.directory, sandbox: sandbox, clock: clock, ids: SequentialIDs(startingAt: 1_000),
                                        keepsDirectory: true)
        sandbox.signIn("bob@example.com", project: "secure")
        await relaunched.sdk.outcome.initialize(secure)
        await relaunched.sdk.outcome.setEmail("bob@example.com")
        relaunched.sdk.networkBecameReachable()
        var outcomes: [Eventually<CallOutcome>] = []
        for index in 0..<20 {
            let outcome = Eventually<CallOutcome>()
            outcomes.append(outcome)
            relaunched.sdk.track("bob-\(index)", completion: outcome.completion)
        }
        await relaunched.sdk.settle()
        for outcome in outcomes { #expect(await outcome.value == .delivered(project: secure.fingerprint, status: 200)) }
        #expect(sandbox.deliveredEvents(project: "secure").map(\.eventName) == (0..<20).map { "bob-\($0)" })
        let failures = try relaunched.closedFacts().compactMap { fact -> CallFailure? in
            if case .taskCompleted(_, .failed(let failure)) = fact { failure } else { nil }
        }
        #expect(failures.count == 1)
        guard case .authentication(let reason)? = failures.first else { return }
        #expect(reason.hasPrefix("the auth provider refused a JWT for its user, who signed out"), "\(reason)")
        #expect(sandbox.requests(project: "secure").allSatisfy { $0.jwtSubject != "ada@example.com" || $0.endpoint != "users/disableDevice" })
    }

    @Test("tokens that expire every hour: a track every 10 minutes for 6 hours, every one delivered, each expiry refreshed once")
    func hourlyTokensForSixHours() async throws {
        let clock = ManualClock()
        let sandbox = try Self.sandbox(lifetime: .seconds(3_600), clock: clock)
        sandbox.signIn("ada@example.com", project: "secure")
        let harness = try SDKHarness(sandbox: sandbox, clock: clock)
        let secure = Self.secure(sandbox)
        await harness.sdk.outcome.initialize(secure)
        await harness.sdk.outcome.setEmail("ada@example.com")
        var outcomes: [CallOutcome] = []
        for index in 0..<36 {
            outcomes.append(await harness.sdk.outcome.track("tick-\(index)"))
            clock.advance(by: .seconds(600))
        }
        #expect(outcomes.allSatisfy { $0 == .delivered(project: secure.fingerprint, status: 200) },
                "\(outcomes.filter { $0 != .delivered(project: secure.fingerprint, status: 200) })")
        // (A request the JWT check refuses is not the project's: it is in the whole log only.)
        let expiries = sandbox.requests().filter { $0.status == 401 }
        #expect(expiries.count == 5, "one expiry an hour, each answered by one refresh")
    }

    @Test("an event's age is its own: tracks at t0, t0+1 min and t0+6 d 23 h offline, the network back at t0+7 d 2 min: the first two expire, the last is delivered")
    func youngEventKeepsItsAge() async throws {
        let (harness, network) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let first = Eventually<CallOutcome>(), second = Eventually<CallOutcome>(), young = Eventually<CallOutcome>()
        sdk.track("t0", completion: first.completion)
        await OfflineDeliveryTests.pass(.seconds(60), in: 2, harness)
        sdk.track("t0+1min", completion: second.completion)
        await OfflineDeliveryTests.pass(.seconds((6 * 24 + 23) * 3_600 - 60), in: 200, harness)
        sdk.track("t0+6d23h", completion: young.completion)
        await OfflineDeliveryTests.pass(.seconds(3 * 3_600 + 120 - 3_600), in: 4, harness)
        network.goOnline()
        sdk.networkBecameReachable()
        await sdk.settle()
        let expired = CallOutcome.discarded(.expired(ageLimit: .milliseconds(EngineRules().deliveryAgeLimitMilliseconds)))
        #expect(await first.value == expired)
        #expect(await second.value == expired)
        #expect(await young.value == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(harness.eventNames(receivedBy: "us") == ["t0+6d23h"])
    }

    @Test("a failed refresh ends the request it was for: ada's track got a 401 and the logout purged it; the provider's failure does not fail her disable")
    func failedRefreshEndsItsOwnRequest() async throws {
        let clock = ManualClock()
        let sandbox = try Self.sandbox(clock: clock)
        sandbox.signIn("ada@example.com", project: "secure")
        // Answers at once, except the first request after it is told to hold (the refresh): that
        // completion is kept for the test to answer, and it says it was asked. Later requests (ada's
        // disable after the logout) are answered at once, whenever they come.
        let held = Locked((holding: false, completions: [@Sendable (Result<String, any Error>) -> Void]()))
        let asked = Eventually<Bool>()
        let provider = ClosureAuthProvider(forUser: { user, completion in
            let hold = held.withLock { state -> Bool in
                guard state.holding else { return false }
                state.holding = false
                state.completions.append(completion)
                return true
            }
            if hold { asked.completion(true) }
            guard !hold else { return }
            if let user, let token = sandbox.requestJWT(project: "secure", subject: user.value) {
                completion(.success(token))
            } else {
                completion(.failure(AuthProviderError.userSignedOut))
            }
        })
        let secure = Project(apiKey: Self.secureKey, config: ProjectConfig(region: .us, authProvider: provider))!
        let harness = try SDKHarness(sandbox: sandbox, clock: clock)
        await harness.sdk.outcome.initialize(secure)
        await harness.sdk.outcome.setEmail("ada@example.com")
        await harness.sdk.outcome.registerToken("ada-device")
        held.withLock { $0.holding = true }
        sandbox.inject(.jwtExpired, matching: .endpoint("events/track"), times: 1)
        let refused = Eventually<CallOutcome>()
        harness.sdk.track("refused", completion: refused.completion)
        // The 401 comes back and the refresh asks the provider, which holds its answer.
        _ = await asked.value
        harness.sdk.logoutUser()
        #expect(await refused.value == .discarded(.purgedByLogout))
        for completion in held.withLock({ $0.completions }) {
            completion(.failure(URLError(.notConnectedToInternet)))
        }
        await harness.sdk.settle()
        let facts = try harness.closedFacts()
        #expect(facts.contains { if case .authRefreshFinished(_, _, .some) = $0 { true } else { false } }, "the refresh failed")
        #expect(!facts.contains { if case .taskCompleted(_, .failed) = $0 { true } else { false } }, "and failed no other task")
        #expect(sandbox.delivered(project: "secure").contains { $0.endpoint == "users/disableDevice" }, "the disable went, with ada's token")
    }
}
