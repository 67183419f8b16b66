/// Why a request could not be read off a connection.
package enum HTTPParseError: Error, Equatable {
    /// The peer closed the connection in the middle of a request.
    case connectionClosed
    /// A socket call failed, or the request's deadline passed (``SocketError/isTimeout``).
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
}
