/// Why a request could not be read off a connection.
enum HTTPParseError: Error, Equatable {
    /// The peer closed the connection in the middle of a request.
    case connectionClosed
    /// A socket call failed or timed out.
    case transport(SocketError)
    case malformedRequestLine
    case malformedHeader
    case invalidContentLength
    /// Both `Content-Length` and `Transfer-Encoding` were present.
    case conflictingFraming
    case unsupportedTransferEncoding
    case malformedChunkedBody
    case headerSectionTooLarge
    case bodyTooLarge

    /// The error response to send before closing, or nil when the connection is already unusable.
    var response: HTTPResponse? {
        switch self {
        case .connectionClosed, .transport:
            return nil
        case .malformedRequestLine:
            return .apiResult(status: 400, code: "BadRequest", message: "malformed request line")
        case .malformedHeader:
            return .apiResult(status: 400, code: "BadRequest", message: "malformed header field")
        case .invalidContentLength:
            return .apiResult(status: 400, code: "BadRequest", message: "invalid Content-Length")
        case .conflictingFraming:
            return .apiResult(status: 400, code: "BadRequest", message: "both Content-Length and Transfer-Encoding sent")
        case .malformedChunkedBody:
            return .apiResult(status: 400, code: "BadRequest", message: "malformed chunked body")
        case .unsupportedTransferEncoding:
            return .apiResult(status: 501, code: "NotImplemented", message: "only chunked transfer coding is supported")
        case .headerSectionTooLarge:
            return .apiResult(status: 431, code: "RequestHeaderFieldsTooLarge", message: "request header section too large")
        case .bodyTooLarge:
            return .apiResult(status: 413, code: "PayloadTooLarge", message: "request body too large")
        }
    }
}
