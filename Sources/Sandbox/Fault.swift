/// A failure the sandbox injects into the response to a matching, authenticated request.
///
/// Queue faults with ``SandboxBackend/inject(_:matching:times:)``. The fault a request received
/// is recorded in ``ReceivedRequest/outcome``.
public enum Fault: Sendable {
    /// Answer with this status and `{"code":"GenericError",...}`. Codes outside 200...599 are sent as 500.
    case status(Int)
    /// Answer 429 with a `Retry-After: 1` header.
    case rateLimited
    /// Answer 401 `{"code":"InvalidJwtPayload",...}` even when the request's token is valid.
    case jwtExpired
    /// Read the request fully, then close the connection without sending any response.
    case dropConnection
    /// Answer normally after this delay (slept on the connection's server thread; cut short by shutdown).
    case latency(Duration)
    /// Answer normally once the gate is released (see ``ResponseHold``); a request still held at
    /// ``SandboxBackend/shutdown()`` gets no response and is recorded as dropped.
    case hold(ResponseHold)
}

extension Fault: Equatable {}

extension Fault: CustomStringConvertible {
    /// The fault as written in Swift, e.g. `status(503)`, for test failure messages.
    public var description: String {
        switch self {
        case .status(let code): "status(\(code))"
        case .rateLimited: "rateLimited"
        case .jwtExpired: "jwtExpired"
        case .dropConnection: "dropConnection"
        case .latency(let delay): "latency(\(delay))"
        case .hold(let gate): "hold(\(gate))"
        }
    }
}
