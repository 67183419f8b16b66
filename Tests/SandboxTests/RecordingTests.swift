import Foundation
import Sandbox
import Testing

@Suite("Routing and recording", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct RecordingTests {
    @Test func postIsRecordedWithHeadersBodyProjectAndRegion() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        let response = try await client.post(
            "users/update",
            region: "eu",
            apiKey: "eu-key",
            body: #"{"email":"ada@example.com","dataFields":{"plan":"pro"}}"#,
            headers: ["X-SDK-Version": "6.5.0"]
        )

        #expect(response.status == 200)
        #expect(response.code == "Success")
        #expect(response.message == "")
        #expect(response.header("Content-Type") == "application/json")
        let recorded = try #require(backend.requests(project: "eu-app").first)
        #expect(recorded.arrivalIndex == 0)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/eu/api/users/update")
        #expect(recorded.region == "eu")
        #expect(recorded.endpoint == "users/update")
        #expect(recorded.projectName == "eu-app")
        #expect(recorded.isAuthenticated)
        #expect(recorded.apiKey == "eu-key")
        #expect(recorded.headers["x-sdk-version"] == "6.5.0")
        #expect(recorded.headers["content-type"] == "application/json")
        #expect(recorded.jsonObject?["email"] as? String == "ada@example.com")
        #expect(recorded.status == 200)
        #expect(recorded.outcome == .accepted)
        #expect(backend.requests(project: "ios-app").isEmpty)
    }

    @Test func baseURLNamesRegionAndPort() throws {
        let backend = try Fixture.makeBackend()
        #expect(backend.baseURL(region: "eu").absoluteString == "http://127.0.0.1:\(backend.port)/eu/api/")
    }

    @Test func getMessagesReturnsConfiguredMessagesAndDefaultsToEmpty() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        try backend.setInAppMessages(Data(#"[{"messageId":"m1"},{"messageId":"m2"}]"#.utf8), project: "ios-app")

        let configured = try await client.get("inApp/getMessages?count=10&platform=iOS", region: "us", apiKey: "us-key")
        let unconfigured = try await client.get("inApp/getMessages", region: "eu", apiKey: "eu-key")

        #expect(configured.status == 200)
        let messages = try #require(configured.json?["inAppMessages"] as? [[String: Any]])
        #expect(messages.compactMap { $0["messageId"] as? String } == ["m1", "m2"])
        #expect((unconfigured.json?["inAppMessages"] as? [Any])?.isEmpty == true)
        #expect(backend.requests().first?.query == "count=10&platform=iOS")
        #expect(backend.requests().first?.endpoint == "inApp/getMessages")
    }

    @Test func embeddedMessagesReturnConfiguredPlacements() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        try backend.setEmbeddedPlacements(Data(#"[{"placementId":7,"embeddedMessages":[]}]"#.utf8), project: "eu-app")

        let response = try await client.get("embedded-messaging/messages", region: "eu", apiKey: "eu-key")

        let placements = try #require(response.json?["placements"] as? [[String: Any]])
        #expect(placements.first?["placementId"] as? Int == 7)
    }

    @Test func configuringMessagesRejectsNonArraysAndUnknownProjects() throws {
        let backend = try Fixture.makeBackend()
        #expect(throws: SandboxBackendError.notAJSONArray) {
            try backend.setInAppMessages(Data(#"{"not":"an array"}"#.utf8), project: "ios-app")
        }
        #expect(throws: SandboxBackendError.unknownProject("nobody")) {
            try backend.setEmbeddedPlacements(Data("[]".utf8), project: "nobody")
        }
    }

    @Test func registeringDuplicateProjectsFails() throws {
        let backend = try Fixture.makeBackend()
        #expect(throws: SandboxBackendError.duplicateProjectName("ios-app")) {
            try backend.register(SandboxProject(name: "ios-app", apiKey: "other"))
        }
        #expect(throws: SandboxBackendError.duplicateAPIKey("eu-key")) {
            try backend.register(SandboxProject(name: "other", apiKey: "eu-key"))
        }
        try backend.register(SandboxProject(name: "android-app", apiKey: "android-key", region: "eu"))
        #expect(backend.projects.map(\.name) == ["android-app", "eu-app", "ios-app", "secure-app"])
    }

    @Test func unknownEndpointsAndMethodsAre404() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        let unknownEndpoint = try await client.post("users/explode", region: "us", apiKey: "us-key")
        let wrongMethod = try await client.get("users/update", region: "us", apiKey: "us-key")
        let notTheAPI = try await client.get("../../favicon.ico", region: "us", apiKey: "us-key")

        #expect([unknownEndpoint, wrongMethod, notTheAPI].map(\.status) == [404, 404, 404])
        #expect(unknownEndpoint.code == "NotFound")
        let recorded = backend.requests()
        #expect(recorded.count == 3)
        #expect(recorded.allSatisfy { $0.status == 404 })
        #expect(recorded[0].outcome == .rejected(reason: "unknown endpoint POST users/explode"))
        #expect(recorded[2].endpoint == nil)
        #expect(recorded[2].region == nil)
    }

    @Test func waitForRequestsResumesWhenTrafficArrives() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        async let arrived = backend.waitForRequests(count: 2, timeout: .seconds(30))
        async let first = client.post("events/track", region: "us", apiKey: "us-key")
        async let second = client.post("events/track", region: "us", apiKey: "us-key")

        #expect(await arrived)
        #expect(try await [first, second].map(\.status) == [200, 200])
        #expect(backend.requests().map(\.arrivalIndex) == [0, 1])
        #expect(await backend.waitForRequests(count: 2, timeout: .seconds(30)))
    }

    @Test func waitForRequestsReturnsFalseWhenTheSafetyNetElapses() async throws {
        let backend = try Fixture.makeBackend()
        #expect(await backend.waitForRequests(count: 1, timeout: .milliseconds(10)) == false)
        #expect(await backend.waitForRequests(count: 0, timeout: .milliseconds(10)))
    }

    @Test func clearingTheLogKeepsArrivalOrderCounting() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        _ = try await client.post("events/track", region: "us", apiKey: "us-key")
        backend.clearRequests()
        #expect(backend.requests().isEmpty)
        _ = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(backend.requests().map(\.arrivalIndex) == [1])
    }

    @Test func receivedRequestJSONIsNilForNonJSONBodies() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        _ = try await client.post("events/track", region: "us", apiKey: "us-key", body: "not json")

        let recorded = try #require(backend.requests().first)
        #expect(recorded.json == nil)
        #expect(recorded.body == Data("not json".utf8))
    }
}
