import LoopbackHTTP

extension HTTPParseError {
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
