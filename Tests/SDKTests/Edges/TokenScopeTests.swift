import Foundation
import Journal
import Locking
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 2: a JWT belongs to one user on one project instance; the auth provider's
/// answer is bounded in time.
@Suite("Edges: JWTs per user and instance", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct TokenScopeTests {
    /// An app's auth provider that answers for whoever is signed in when it is asked, whichever
    /// user the SDK asks for.
    final class SignedInProvider: AuthProvider {
        let sandbox: SandboxBackend
        let user = Locked("nobody")
        let issued = Locked<[String: String]>([:])   // token -> user

        init(sandbox: SandboxBackend) { self.sandbox = sandbox }

        func requestToken(for _: UserIdentity?, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
            let subject = user.withLock { $0 }
            let token = sandbox.issueJWT(project: "secure", subject: subject)
            issued.withLock { $0[token] = subject }
            completion(.success(token))
        }

        func user(of request: ReceivedRequest) -> String? {
            guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else { return nil }
            return issued.withLock { $0[String(header.dropFirst(7))] }
        }
    }

    @Test("after A (ada) -> B -> A (bob), bob's requests carry bob's token, never ada's; a new identity gets a new token")
    func tokenFollowsUserAndInstance() async throws {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: "jwt-key", region: "us", requiresJWT: true),
                                                    SandboxProject(name: "eu", apiKey: SDKHarness.euKey, region: "eu")])
        let harness = try SDKHarness(sandbox: sandbox)
        let provider = SignedInProvider(sandbox: sandbox)
        let secure = Project(apiKey: "jwt-key", config: ProjectConfig(region: .us, authProvider: provider))!
        let sdk = harness.sdk
        provider.user.withLock { $0 = "ada" }
        await sdk.outcome.initialize(secure)
        await sdk.outcome.setEmail("ada@example.com")
        #expect(await sdk.outcome.track("ada-1") == .delivered(project: secure.fingerprint, status: 200))
        _ = await sdk.outcome.switchProject(to: harness.eu)
        _ = await sdk.outcome.switchProject(to: secure)
        provider.user.withLock { $0 = "bob" }
        await sdk.outcome.setEmail("bob@example.com")
        #expect(await sdk.outcome.track("bob-1") == .delivered(project: secure.fingerprint, status: 200))
        provider.user.withLock { $0 = "carol" }
        await sdk.outcome.setEmail("carol@example.com")
        #expect(await sdk.outcome.track("carol-1") == .delivered(project: secure.fingerprint, status: 200))
        await sdk.outcome.logoutUser()
        provider.user.withLock { $0 = "dan" }
        await sdk.outcome.setEmail("dan@example.com")
        #expect(await sdk.outcome.track("dan-1") == .delivered(project: secure.fingerprint, status: 200))
        let tracks = sandbox.requests(project: "secure").filter { $0.endpoint == "events/track" && $0.outcome == .accepted }
        let byEvent = Dictionary(tracks.map { (($0.jsonObject?["eventName"] as? String) ?? "?", provider.user(of: $0)) }, uniquingKeysWith: { a, _ in a })
        #expect(byEvent["ada-1"] == "ada")
        #expect(byEvent["bob-1"] == "bob")
        #expect(byEvent["carol-1"] == "carol")
        #expect(byEvent["dan-1"] == "dan")
    }

    @Test("a token the provider issues after the identity changed is used for the request it was asked for, never cached for the next user")
    func lateTokenIsNotCached() async throws {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: "jwt-key", region: "us", requiresJWT: true)])
        let harness = try SDKHarness(sandbox: sandbox)
        let asked = Locked<[(@Sendable (Result<String, any Error>) -> Void)]>([])
        let slow = ClosureAuthProvider { completion in asked.withLock { $0.append(completion) } }
        let secure = Project(apiKey: "jwt-key", config: ProjectConfig(region: .us, authProvider: slow))!
        let sdk = harness.sdk
        await sdk.outcome.initialize(secure)
        await sdk.outcome.setEmail("ada@example.com")
        let adaTrack = Eventually<CallOutcome>()
        sdk.track("ada-1", completion: adaTrack.completion)
        _ = sdk.engineView()                                   // ada's request waits for its token
        #expect(asked.withLock { $0.count } == 1)
        await sdk.outcome.setEmail("bob@example.com")                  // the identity changes meanwhile
        let adaToken = sandbox.issueJWT(project: "secure", subject: "ada")
        asked.withLock { $0[0] }(.success(adaToken))           // the answer for ada arrives late
        _ = await adaTrack.value
        let bobTrack = Eventually<CallOutcome>()
        sdk.track("bob-1", completion: bobTrack.completion)
        _ = sdk.engineView()
        #expect(asked.withLock { $0.count } == 2, "bob's request asks the provider again rather than reuse ada's token")
        let bobToken = sandbox.issueJWT(project: "secure", subject: "bob")
        asked.withLock { $0[1] }(.success(bobToken))
        #expect(await bobTrack.value == .delivered(project: secure.fingerprint, status: 200))
        let bob = sandbox.requests(project: "secure").first { ($0.jsonObject?["eventName"] as? String) == "bob-1" }
        #expect(bob?.headers["authorization"] == "Bearer \(bobToken)")
    }

    @Test("a provider that answers twice is heard once")
    func providerAnsweringTwice() async throws {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: "jwt-key", region: "us", requiresJWT: true)])
        let harness = try SDKHarness(sandbox: sandbox)
        let twice = ClosureAuthProvider { completion in
            completion(.success(sandbox.issueJWT(project: "secure", subject: "ada")))
            completion(.success(sandbox.issueJWT(project: "secure", subject: "ada")))
        }
        let secure = Project(apiKey: "jwt-key", config: ProjectConfig(region: .us, authProvider: twice))!
        await harness.sdk.outcome.initialize(secure)
        await harness.sdk.outcome.setEmail("ada@example.com")
        #expect(await harness.sdk.outcome.track("x") == .delivered(project: secure.fingerprint, status: 200))
        await harness.sdk.settle()
        #expect(sandbox.requests(project: "secure").filter { $0.endpoint == "events/track" }.count == 1)
    }
}
