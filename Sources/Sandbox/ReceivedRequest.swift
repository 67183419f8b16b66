import Foundation

/// One request the sandbox read off a connection, as recorded in its log.
///
/// A request is recorded just before its response is written (or its connection is dropped), so by
/// the time a client has observed the outcome, ``SandboxBackend/requests()`` already contains it.
/// Requests that could not be parsed (400, 413, 431) are not recorded.
public struct ReceivedRequest: Sendable, Equatable {
    /// What the sandbox did with a request.
    public enum Outcome: Sendable, Equatable {
        /// Authenticated, routed and answered normally.
        case accepted
        /// Answered with an error (401 authentication, 404 routing); `reason` says why.
        case rejected(reason: String)
        /// Authenticated, then handled according to an injected fault.
        case faulted(Fault)
        /// Never answered because the server shut down while the request was delayed or held.
        case dropped
        /// Answered `200`, but its `Idempotency-Key` was already answered for this project: a
        /// re-send the platform dedupes.
        case duplicate
    }

    /// Position in the global arrival order of this server, starting at 0. Not reset by clearing the log.
    public let arrivalIndex: Int
    /// The method as sent, e.g. `"POST"`.
    public let method: String
    /// The path without the query string, e.g. `"/eu/api/users/update"`.
    public let path: String
    /// The query string without the `?`, or nil when there was none.
    public let query: String?
    /// The region segment of the path, or nil when the path is not `/<region>/api/<endpoint>`.
    public let region: String?
    /// The path after `/api/`, e.g. `"users/update"`, or nil when the path has no such shape.
    public let endpoint: String?
    /// The project the `Api-Key` header named, or nil when the key was missing or unknown.
    public let projectName: String?
    /// Whether the request passed authentication (key, region and, when required, JWT).
    public let isAuthenticated: Bool
    /// The `Api-Key` header exactly as sent, or nil when absent.
    public let apiKey: String?
    /// Header fields by lowercased name; repeated fields are joined with `", "`.
    public let headers: [String: String]
    /// The request body after removing any chunked framing.
    public let body: Data
    /// The status of the response sent, or nil when none was sent (dropped connection).
    public let status: Int?
    /// What the sandbox did with the request, including the fault it injected, if any.
    public let outcome: Outcome
    /// The `sub` claim of the request's bearer token, when the sandbox issued it (valid or not).
    public let jwtSubject: String?
    /// When the sandbox had parsed the request, by the backend's clock (the `clock` given to
    /// ``SandboxBackend/init(projects:clock:)``).
    public let receivedAt: Date

    /// The body decoded with `JSONSerialization` (fragments allowed), or nil when it is not JSON.
    public var json: Any? {
        try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    }

    /// The body as a JSON object, or nil when it is not one.
    public var jsonObject: [String: Any]? {
        json as? [String: Any]
    }
}

extension ReceivedRequest {
    /// Builds the record for `request`, as decided by the API and finally delivered.
    init(
        arrivalIndex: Int,
        request: HTTPRequest,
        decision: APIDecision,
        status: Int?,
        outcome: Outcome,
        jwtSubject: String?,
        receivedAt: Date
    ) {
        self.init(
            arrivalIndex: arrivalIndex,
            method: request.method,
            path: request.path,
            query: request.query,
            region: decision.route?.region,
            endpoint: decision.route?.endpoint,
            projectName: decision.project?.name,
            isAuthenticated: decision.isAuthenticated,
            apiKey: request.headers["api-key"],
            headers: request.headers.dictionary,
            body: request.body,
            status: status,
            outcome: outcome,
            jwtSubject: jwtSubject,
            receivedAt: receivedAt
        )
    }
}
