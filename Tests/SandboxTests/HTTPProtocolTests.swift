import Foundation
import SDKTesting
import Sandbox
import Testing
import TestSupport

@Suite("HTTP/1.1 handling", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct HTTPProtocolTests {
    private static let track = RawHTTPConnection.request(
        "POST", "/us/api/events/track", headers: [("Api-Key", "us-key")], body: #"{"eventName":"open"}"#
    )

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send(Self.track)
        let first = try connection.readResponse()
        try connection.send(Self.track)
        let second = try connection.readResponse()

        #expect([first, second].map(\.status) == [200, 200])
        #expect(first.headers["connection"] == "keep-alive")
        #expect(first.headers["content-type"] == "application/json")
        #expect(first.headers["content-length"] == String(first.body.count))
        #expect(backend.requests().count == 2)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)
        let unknown = RawHTTPConnection.request("GET", "/us/api/nope", headers: [("Api-Key", "us-key")])

        try connection.send(Self.track + unknown + Self.track)

        #expect(try (0..<3).map { _ in try connection.readResponse().status } == [200, 404, 200])
    }

    @Test func connectionCloseIsHonoured() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send(RawHTTPConnection.request(
            "GET", "/us/api/inApp/getMessages", headers: [("Api-Key", "us-key"), ("Connection", "close")]
        ))

        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["connection"] == "close")
        #expect(try connection.readUntilClosed().isEmpty)
    }

    @Test func chunkedBodiesAreDecoded() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send(
            "POST /us/api/events/track HTTP/1.1\r\nHost: x\r\nApi-Key: us-key\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "d\r\n{\"eventName\":\r\n8;ext=1\r\n\"opened\"\r\n1\r\n}\r\n0\r\nX-Trailer: t\r\n\r\n"
        )

        #expect(try connection.readResponse().status == 200)
        #expect(backend.requests().first?.body == Data(#"{"eventName":"opened"}"#.utf8))
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)
        let body = #"{"email":"a@b.c"}"#

        try connection.send(
            "POST /us/api/users/update HTTP/1.1\r\nHost: x\r\nApi-Key: us-key\r\n"
                + "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        )
        let interim = try connection.readResponse()
        try connection.send(body)
        let final = try connection.readResponse()

        #expect(interim.status == 100)
        #expect(final.status == 200)
        #expect(backend.requests().first?.jsonObject?["email"] as? String == "a@b.c")
    }

    @Test func largePostThroughURLSessionArrivesIntact() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        let padding = String(repeating: "x", count: 200_000)

        let response = try await client.post("events/track", region: "us", apiKey: "us-key", body: #"{"pad":"\#(padding)"}"#)

        #expect(response.status == 200)
        #expect((backend.requests().first?.jsonObject?["pad"] as? String)?.count == padding.count)
    }

    @Test func oversizedHeaderSectionIs431() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send(RawHTTPConnection.request(
            "GET", "/us/api/inApp/getMessages", headers: [("X-Padding", String(repeating: "a", count: 70_000))]
        ))

        #expect(try connection.readResponse().status == 431)
        #expect(try connection.readUntilClosed().isEmpty)
        #expect(backend.requests().isEmpty)
    }

    @Test func oversizedContentLengthIs413WithoutContinue() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send(
            "POST /us/api/events/track HTTP/1.1\r\nHost: x\r\nApi-Key: us-key\r\n"
                + "Expect: 100-continue\r\nContent-Length: \(9 * 1024 * 1024)\r\n\r\n"
        )

        #expect(try connection.readResponse().status == 413)
        #expect(try connection.readUntilClosed().isEmpty)
    }

    @Test func oversizedChunkIs413() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send(
            "POST /us/api/events/track HTTP/1.1\r\nHost: x\r\nApi-Key: us-key\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "900000\r\n"
        )

        #expect(try connection.readResponse().status == 413)
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /us/api/inApp/getMessages HTTP/9.9\r\n\r\n",
        "GET /us/api/inApp/getMessages HTTP/1.1\r\nNo colon here\r\n\r\n",
        "POST /us/api/events/track HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "POST /us/api/events/track HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST /us/api/events/track HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "\u{01}\u{02}\u{03}\r\n\r\n",
    ])
    func malformedRequestsAre400AndTheServerKeepsServing(garbage: String) async throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        try connection.send(garbage)
        let rejection = try connection.readResponse()
        let afterwards = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(rejection.status == 400)
        #expect(rejection.json?["code"] as? String == "BadRequest")
        #expect(try connection.readUntilClosed().isEmpty)
        #expect(afterwards.status == 200)
        #expect(backend.requests().count == 1)
    }

    @Test func unsupportedTransferCodingIs501() throws {
        let backend = try Fixture.makeBackend()
        let connection = try RawHTTPConnection(port: backend.port)

        try connection.send("POST /us/api/events/track HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")

        #expect(try connection.readResponse().status == 501)
    }

    @Test func slowClientDoesNotBlockOthers() async throws {
        let backend = try Fixture.makeBackend()
        let slow = try RawHTTPConnection(port: backend.port)
        let client = SandboxClient(backend)
        defer { client.invalidate() }

        try slow.send("POST /us/api/events/track HTTP/1.1\r\nApi-Key: us-key\r\n")
        let fast = try await client.post("events/track", region: "us", apiKey: "us-key")
        try slow.send("Content-Length: 2\r\n\r\n{}")

        #expect(fast.status == 200)
        #expect(try slow.readResponse().status == 200)
        #expect(backend.requests().count == 2)
    }

    @Test func randomBytesNeverStopTheServer() async throws {
        let backend = try Fixture.makeBackend()
        let client = SandboxClient(backend)
        defer { client.invalidate() }
        var generator = SplitMix64(seed: 0x5A4D_B0C5)
        let prefixes = ["", "POST /us/api/events/track HTTP/1.1\r\n", "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"]

        for round in 0..<60 {
            let connection = try RawHTTPConnection(port: backend.port)
            let noise = (0..<Int.random(in: 1...2_000, using: &generator)).map { _ in
                UInt8.random(in: .min ... .max, using: &generator)
            }
            try connection.send(Array(prefixes[round % prefixes.count].utf8) + noise + Array("\r\n\r\n".utf8))
            connection.finishSending()
            _ = try connection.readUntilClosed()
        }
        let afterwards = try await client.post("events/track", region: "us", apiKey: "us-key")

        #expect(afterwards.status == 200)
    }
}
