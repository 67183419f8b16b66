import Foundation

/// A response the server sends: status, extra header fields and a JSON body.
///
/// Serialisation always adds `Content-Type: application/json`, `Content-Length` and a
/// `Connection` field matching the keep-alive decision.
struct HTTPResponse: Sendable, Equatable {
    /// A header field added on top of the ones every response carries.
    struct Field: Sendable, Equatable {
        let name: String
        let value: String
    }

    var status: Int
    var extraFields: [Field] = []
    var body: Data

    /// The wire form of the response. `includeBody` is false for `HEAD` requests,
    /// which still get the `Content-Length` the body would have had.
    func serialized(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(for: status))\r\n"
        head += "Content-Type: application/json\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n"
        for field in extraFields {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if includeBody {
            bytes += body
        }
        return bytes
    }

    /// A `{"code": ..., "msg": ...}` body, the shape the imitated API uses for results and errors.
    static func apiResult(status: Int, code: String, message: String) -> HTTPResponse {
        HTTPResponse(status: status, body: APIResultBody(code: code, msg: message).encoded())
    }

    /// A 200 response whose body is `{"<key>": <array>}`, splicing in raw JSON array bytes
    /// that were validated when they were configured.
    static func wrapping(jsonArray: Data, under key: String) -> HTTPResponse {
        var body = Data("{\"\(key)\":".utf8)
        body += jsonArray
        body += Data("}".utf8)
        return HTTPResponse(status: 200, body: body)
    }

    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}

/// The `{"code","msg"}` object the imitated API returns.
private struct APIResultBody: Encodable {
    let code: String
    let msg: String

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings cannot fail; the fallback only keeps the signature non-throwing.
        return (try? encoder.encode(self)) ?? Data(#"{"code":"GenericError","msg":""}"#.utf8)
    }
}
