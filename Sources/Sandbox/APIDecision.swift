/// What the imitated API decided for one request: the response, how to deliver it, and how to record it.
struct APIDecision: Sendable {
    /// When, if ever, the response goes out.
    enum Delivery: Sendable {
        case immediately
        case after(Duration)
        case whenReleased(ResponseHold)
        /// Close the connection without answering.
        case never
    }

    var route: APIRoute?
    /// The project the `Api-Key` named (whether or not it then authenticated).
    var project: SandboxProject?
    var isAuthenticated = false
    var response: HTTPResponse
    var outcome: ReceivedRequest.Outcome
    var delivery: Delivery = .immediately
}
