import Foundation
@testable import Sandbox
import Testing

/// An in-memory channel that delivers a script in fixed-size pieces and captures what is sent.
private final class ScriptedChannel: ByteChannel {
    private var pending: [UInt8]
    private let pieceSize: Int
    private(set) var sent: [UInt8] = []

    init(_ script: String, pieceSize: Int = .max) {
        pending = Array(script.utf8)
        self.pieceSize = pieceSize
    }

    func receive(maxBytes: Int) -> [UInt8] {
        let count = min(pieceSize, maxBytes, pending.count)
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    func send(_ bytes: [UInt8]) {
        sent += bytes
    }
}

@Suite("HTTPRequestParser", .timeLimit(.minutes(3)))
struct HTTPRequestParserTests {
    @Test func parsesARequestDeliveredOneByteAtATime() throws {
        let channel = ScriptedChannel(
            "\r\nPOST /eu/api/users/update?x=1 HTTP/1.1\r\nAPI-KEY:  k \r\nContent-Length: 2\r\n\r\n{}",
            pieceSize: 1
        )
        var parser = HTTPRequestParser(channel: channel)

        let request = try #require(try parser.nextRequest())

        #expect(request.method == "POST")
        #expect(request.path == "/eu/api/users/update")
        #expect(request.query == "x=1")
        #expect(request.headers["api-key"] == "k")
        #expect(request.headers["Api-Key"] == "k")
        #expect(request.body == Data("{}".utf8))
        #expect(request.wantsKeepAlive)
        #expect(try parser.nextRequest() == nil)
    }

    @Test func keepsBytesOfPipelinedRequests() throws {
        let channel = ScriptedChannel("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.0\r\n\r\n")
        var parser = HTTPRequestParser(channel: channel)

        let first = try #require(try parser.nextRequest())
        let second = try #require(try parser.nextRequest())

        #expect(first.target == "/a")
        #expect(second.target == "/b")
        #expect(!second.wantsKeepAlive)
    }

    @Test func sendsContinueOnlyWhenABodyIsExpected() throws {
        let withBody = ScriptedChannel("POST /a HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx")
        let withoutBody = ScriptedChannel("GET /a HTTP/1.1\r\nExpect: 100-continue\r\n\r\n")
        var bodyParser = HTTPRequestParser(channel: withBody)
        var emptyParser = HTTPRequestParser(channel: withoutBody)

        _ = try bodyParser.nextRequest()
        _ = try emptyParser.nextRequest()

        #expect(String(decoding: withBody.sent, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(withoutBody.sent.isEmpty)
    }

    @Test func combinesRepeatedHeaderFields() throws {
        var parser = HTTPRequestParser(channel: ScriptedChannel("GET / HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\n\r\n"))
        let request = try #require(try parser.nextRequest())
        #expect(request.headers["X-A"] == "1, 2")
        #expect(request.headers.dictionary == ["x-a": "1, 2"])
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\n folded: value\r\n\r\n", HTTPParseError.malformedHeader),
        ("GET / HTTP/1.1\r\nBad Name: value\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nX: a\u{7F}b\r\n\r\n", .malformedHeader),
        ("GET  / HTTP/1.1\r\n\r\n", .malformedRequestLine),
        ("GET http://x/ HTTP/1.1\r\n\r\n", .malformedRequestLine),
        ("POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\n", .malformedChunkedBody),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", .malformedChunkedBody),
        ("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab", .connectionClosed),
        ("GET / HTTP/1.1\r\nHost: x\r\n", .connectionClosed),
    ])
    func rejectsMalformedInput(script: String, expected: HTTPParseError) {
        var parser = HTTPRequestParser(channel: ScriptedChannel(script))
        #expect(throws: expected) { try parser.nextRequest() }
    }

    @Test func enforcesTheConfiguredLimits() {
        var limits = HTTPLimits.standard
        limits.maxHeaderSectionBytes = 64
        limits.maxBodyBytes = 4
        var headParser = HTTPRequestParser(
            channel: ScriptedChannel("GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 100))\r\n\r\n"),
            limits: limits
        )
        var bodyParser = HTTPRequestParser(
            channel: ScriptedChannel("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcde"), limits: limits
        )
        var chunkedParser = HTTPRequestParser(
            channel: ScriptedChannel("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"),
            limits: limits
        )

        #expect(throws: HTTPParseError.headerSectionTooLarge) { try headParser.nextRequest() }
        #expect(throws: HTTPParseError.bodyTooLarge) { try bodyParser.nextRequest() }
        #expect(throws: HTTPParseError.bodyTooLarge) { try chunkedParser.nextRequest() }
    }
}
