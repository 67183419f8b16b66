import Foundation
import Sandbox
import Testing

@Suite("Fault injection", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct FaultInjectionTests {
    @Test(arguments: [500, 503])
    func statusFaultAnswersOnceWithThatStatus(code: Int) async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.status(code))

        let faulted = try await client.post("events/track", region: "us", apiKey: "us-key")
        let normal = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(faulted.status == code)
        #expect(faulted.code == "GenericError")
        #expect(normal.status == 200)
        #expect(backend.requests().map(\.outcome) == [.faulted(.status(code)), .accepted])
        #expect(backend.pendingFaultCount == 0)
    }

    @Test func rateLimitedAnswers429WithRetryAfter() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.rateLimited)

        let response = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(response.status == 429)
        #expect(response.header("Retry-After") == "1")
        #expect(backend.requests().first?.outcome == .faulted(.rateLimited))
    }

    @Test func jwtExpiredRejectsEvenAValidToken() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let token = backend.issueJWT(project: "secure-app", subject: "user@example.com")
        backend.inject(.jwtExpired)

        let response = try await client.post(
            "events/track", region: "us", apiKey: "jwt-key", headers: ["Authorization": "Bearer \(token)"]
        )

        #expect(response.status == 401)
        #expect(response.code == "InvalidJwtPayload")
        #expect(backend.requests().first?.outcome == .faulted(.jwtExpired))
    }

    @Test func dropConnectionGivesTheClientAnError() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.dropConnection)

        await #expect(throws: (any Error).self) {
            try await client.post("users/update", region: "us", apiKey: "us-key", body: #"{"email":"a@b.c"}"#)
        }
        let recovered = try await client.post("users/update", region: "us", apiKey: "us-key")

        #expect(recovered.status == 200)
        let dropped = try #require(backend.requests().first)
        #expect(dropped.outcome == .faulted(.dropConnection))
        #expect(dropped.status == nil)
        #expect(dropped.jsonObject?["email"] as? String == "a@b.c")
    }

    @Test func holdGateHoldsResponsesUntilReleased() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let gate = ResponseHold()
        backend.inject(.hold(gate), times: 2)

        async let first = client.post("events/track", region: "us", apiKey: "us-key")
        async let second = client.post("events/trackPushOpen", region: "us", apiKey: "us-key")
        #expect(await gate.waitUntilHeld(count: 2))
        #expect(backend.requests().isEmpty)
        #expect(!gate.isReleased)
        gate.release()

        #expect(try await [first, second].map(\.status) == [200, 200])
        #expect(backend.requests().map(\.outcome) == [.faulted(.hold(gate)), .faulted(.hold(gate))])
    }

    @Test func releasedGateLetsLaterRequestsThrough() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let gate = ResponseHold()
        gate.release()
        backend.inject(.hold(gate))

        let response = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(response.status == 200)
        #expect(gate.heldCount == 1)
    }

    @Test func latencyStillAnswersNormally() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.latency(.milliseconds(5)))

        let response = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(response.status == 200)
        #expect(backend.requests().first?.outcome == .faulted(.latency(.milliseconds(5))))
    }

    @Test func matchersSelectByEndpointProjectAndRegion() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.status(500), matching: .endpoint("commerce/trackPurchase"))
        backend.inject(.status(503), matching: .all([.project("eu-app"), .region("eu")]), times: 2)

        let update = try await client.post("users/update", region: "us", apiKey: "us-key")
        let purchase = try await client.post("commerce/trackPurchase", region: "us", apiKey: "us-key")
        let euFirst = try await client.post("events/track", region: "eu", apiKey: "eu-key")
        let euSecond = try await client.post("users/update", region: "eu", apiKey: "eu-key")
        let euThird = try await client.post("users/update", region: "eu", apiKey: "eu-key")

        #expect([update, purchase, euFirst, euSecond, euThird].map(\.status) == [200, 500, 503, 503, 200])
    }

    @Test func faultsAreOnlyConsumedByAuthenticatedRequests() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.status(500))

        let rejected = try await client.post("events/track", region: "us", apiKey: "wrong-key")
        let faulted = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(rejected.status == 401)
        #expect(faulted.status == 500)
    }

    @Test func removeAllFaultsDiscardsQueuedFaults() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        backend.inject(.status(500), times: 3)
        #expect(backend.pendingFaultCount == 3)
        backend.removeAllFaults()

        let response = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(response.status == 200)
    }
}
