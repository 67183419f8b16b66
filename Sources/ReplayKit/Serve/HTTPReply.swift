/// What ``LoopbackServer`` answers a request with: a status, a content type and a body, sent
/// with `Connection: close` and headers that keep the page to itself (no caching, no sniffing,
/// nothing loaded from elsewhere).
package struct HTTPReply: Sendable {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]
    /// Extra headers (a redirect's `Location`).
    package var headers: [(String, String)] = []

    package init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A UTF-8 text body.
    package static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8") -> HTTPReply {
        HTTPReply(status: status, contentType: type, body: Array(text.utf8))
    }

    /// A JSON body.
    package static func json(_ value: JSONValue, status: Int = 200) -> HTTPReply {
        text(value.serialized(), status: status, type: "application/json")
    }

    /// An error as plain text: what was wrong.
    package static func refusal(_ status: Int, _ message: String) -> HTTPReply {
        text(message + "\n", status: status)
    }

    /// The bytes on the wire (a HEAD request gets the head only).
    package func serialized(headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
        head += "Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (headOnly ? [] : body)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
