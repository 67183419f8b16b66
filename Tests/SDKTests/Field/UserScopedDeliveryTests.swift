import Foundation
import Journal
import Locking
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// Each event leaves under its own user: a task records the user it was made for, a bulk only
/// gathers one user's events, and the JWT a request carries was issued for that user.
@Suite("Field: each request for its own user", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct UserScopedDeliveryTests {
    /// A JWT project whose backend accepts a token only for requests made for its subject.
    static func jwtHarness() throws -> (SDKHarness, Project, Locked<[String]>) {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "secure", apiKey: "jwt-key", region: "us", requiresJWT: true,
                                                                   jwtSubjectMustMatchUser: true)])
        let harness = try SDKHarness(sandbox: sandbox)
        let asked = Locked<[String]>([])
        let provider = ClosureAuthProvider(forUser: { user, completion in
            let subject = user?.value ?? "-"
            asked.withLock { $0.append(subject) }
            completion(.success(sandbox.issueJWT(project: "secure", subject: subject)))
        })
        return (harness, Project(apiKey: "jwt-key", config: ProjectConfig(region: .us, authProvider: provider))!, asked)
    }

    @Test("ada's events made while a request is on the wire leave with ada's token after the app signs bob in; no bulk mixes them")
    func eventsKeepTheirUser() async throws {
        let (harness, secure, asked) = try Self.jwtHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(secure)
        await sdk.outcome.setEmail("ada@example.com")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("events/track"))
        var outcomes: [Eventually<CallOutcome>] = []
        func track(_ name: String) {
            let outcome = Eventually<CallOutcome>()
            outcomes.append(outcome)
            sdk.track(name, completion: outcome.completion)
        }
        track("ada-on-the-wire")
        #expect(await hold.waitUntilHeld(count: 1))
        track("ada-1")
        track("ada-2")
        sdk.setEmail("bob@example.com")
        track("bob-1")
        track("bob-2")
        hold.release()
        await sdk.settle()
        for outcome in outcomes { #expect(outcome.current == .delivered(project: secure.fingerprint, status: 200)) }
        let requests = harness.received(by: "secure").filter { $0.endpoint?.hasPrefix("events/track") == true }
        for request in requests {
            let users = Set(request.trackedEvents.compactMap(\.email))
            #expect(users.count == 1, "one user per request: \(users)")
            #expect(request.jwtSubject == users.first, "the token was issued for the events' user")
        }
        let events = harness.sandbox.deliveredEvents(project: "secure")
        #expect(events.map(\.eventName) == ["ada-on-the-wire", "ada-1", "ada-2", "bob-1", "bob-2"])
        #expect(asked.withLock { $0 } == ["ada@example.com", "bob@example.com"], "one token per user, cached for the instance")
    }

    @Test("a request made for ada before she logged out still goes with ada's token: her disable after logout")
    func logoutDisableKeepsItsUser() async throws {
        let (harness, secure, _) = try Self.jwtHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(secure)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-1")
        await sdk.outcome.logoutUser()
        await sdk.outcome.setEmail("bob@example.com")
        #expect(await sdk.outcome.track("bob-1") == .delivered(project: secure.fingerprint, status: 200))
        let disables = harness.received(by: "secure").filter { $0.endpoint == "users/disableDevice" }
        #expect(disables.count == 1)
        #expect(disables.first?.jwtSubject == "ada@example.com")
    }

    @Test("the journal names each task's user; a redacted export keeps the task's user as a token")
    func tasksNameTheirUser() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setUserId("user-42")
        #expect(await sdk.outcome.track("by-id") == .delivered(project: harness.us.fingerprint, status: 200))
        let users = try harness.closedFacts().compactMap { fact -> UserIdentity?? in
            if case .taskQueued(let task) = fact { task.user } else { nil }
        }
        #expect(users == [.userID("user-42")])
    }
}
