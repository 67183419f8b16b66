import Foundation
import Sandbox
import Testing

@Suite("Server lifecycle", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct LifecycleTests {
    @Test func twoServersRunSideBySideOnDifferentPorts() async throws {
        let first = try Fixture.makeBackend()
        let second = try Fixture.makeBackend()
        let firstClient = SandboxClient(first)
        let secondClient = SandboxClient(second)
        defer {
            firstClient.invalidate()
            secondClient.invalidate()
        }

        #expect(first.port != second.port)
        _ = try await firstClient.post("events/track", region: "us", apiKey: "us-key")
        _ = try await secondClient.post("users/update", region: "eu", apiKey: "eu-key")

        #expect(first.requests().map(\.endpoint) == ["events/track"])
        #expect(second.requests().map(\.endpoint) == ["users/update"])
    }

    @Test func requestsFailAfterShutdown() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        _ = try await client.post("events/track", region: "us", apiKey: "us-key")

        backend.shutdown()
        backend.shutdown()

        #expect(!backend.isRunning)
        #expect(throws: TestClientError.self) { try RawHTTPConnection(port: backend.port) }
        await #expect(throws: (any Error).self) {
            try await client.post("events/track", region: "us", apiKey: "us-key")
        }
    }

    @Test func shutdownClosesOpenKeepAliveConnections() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)
        try connection.send(RawHTTPConnection.request("GET", "/us/api/inApp/getMessages", headers: [("Api-Key", "us-key")]))
        #expect(try connection.readResponse().status == 200)

        backend.shutdown()

        #expect(try connection.readUntilClosed().isEmpty)
    }

    @Test func shutdownAbandonsHeldRequests() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let gate = ResponseHold()
        backend.inject(.hold(gate))

        let held = Task { try await client.post("events/track", region: "us", apiKey: "us-key") }
        #expect(await gate.waitUntilHeld(count: 1))
        backend.shutdown()

        await #expect(throws: (any Error).self) { try await held.value }
        #expect(backend.requests().first?.outcome == .dropped)
        #expect(backend.requests().first?.status == nil)
    }

    @Test func deinitShutsTheServerDown() throws {
        var port: UInt16 = 0
        do {
            let backend = try Fixture.makeBackend()
            port = backend.port
            _ = try RawHTTPConnection(port: port)
        }
        #expect(throws: TestClientError.self) { try RawHTTPConnection(port: port) }
    }
}
