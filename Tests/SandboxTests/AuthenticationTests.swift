import Foundation
import Sandbox
import Testing

@Suite("Authentication", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct AuthenticationTests {
    @Test func unknownKeyIsRejectedAndRecorded() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        let response = try await client.post("users/update", region: "us", apiKey: "stolen-key")

        #expect(response.status == 401)
        #expect(response.code == "BadApiKey")
        let recorded = try #require(backend.requests().first)
        #expect(recorded.projectName == nil)
        #expect(recorded.apiKey == "stolen-key")
        #expect(!recorded.isAuthenticated)
        #expect(recorded.status == 401)
        guard case .rejected = recorded.outcome else {
            Issue.record("expected a rejection, got \(recorded.outcome)")
            return
        }
    }

    @Test func missingKeyIsRejected() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        let response = try await client.post("users/update", region: "us", apiKey: nil)

        #expect(response.status == 401)
        #expect(response.code == "BadApiKey")
        #expect(backend.requests().first?.outcome == .rejected(reason: "missing Api-Key header"))
    }

    @Test func keySentToAnotherRegionNamesBothRegions() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        let response = try await client.post("users/update", region: "us", apiKey: "eu-key")

        #expect(response.status == 401)
        #expect(response.code == "BadApiKey")
        #expect(response.message == "key for region eu sent to region us")
        let recorded = try #require(backend.requests().first)
        #expect(recorded.projectName == "eu-app")
        #expect(!recorded.isAuthenticated)
        #expect(backend.requests(project: "eu-app").isEmpty)
    }

    @Test func jwtProjectRequiresAValidUnexpiredToken() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        func track(token: String?) async throws -> ClientResponse {
            let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
            return try await client.post("events/track", region: "us", apiKey: "jwt-key", headers: headers)
        }

        let withoutToken = try await track(token: nil)
        let oldToken = backend.issueJWT(project: "secure-app", subject: "user@example.com")
        let withToken = try await track(token: oldToken)
        backend.expireJWTs(project: "secure-app")
        let withExpiredToken = try await track(token: oldToken)
        let withNewToken = try await track(token: backend.issueJWT(project: "secure-app", subject: "user@example.com"))
        let withForeignToken = try await track(token: backend.issueJWT(project: "ios-app", subject: "user@example.com"))
        let withForgedToken = try await track(token: oldToken + "x")

        #expect(withoutToken.status == 401)
        #expect(withoutToken.code == "InvalidJwtPayload")
        #expect(withToken.status == 200)
        #expect(withExpiredToken.status == 401)
        #expect(withExpiredToken.code == "InvalidJwtPayload")
        #expect(withNewToken.status == 200)
        #expect(withForeignToken.status == 401)
        #expect(withForgedToken.status == 401)
        #expect(backend.requests(project: "secure-app").count == 2)
    }

    @Test func issuedTokensLookLikeJWTs() throws {
        let backend = try Fixture.makeBackend()
        let token = backend.issueJWT(project: "secure-app", subject: "user@example.com")
        let segments = token.split(separator: ".")
        #expect(segments.count == 3)
        #expect(token != backend.issueJWT(project: "secure-app", subject: "user@example.com"))
    }
}
