import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// A ``Transport`` that sends requests over HTTP with Foundation's `URLSession`.
///
/// The session is ephemeral: no cookies, no response cache, no stored URL credentials. At most
/// ``maximumConnectionsPerHost`` connections are open to one host; further requests queue.
///
/// Contract of ``send(_:completion:)``:
/// - `completion` is called exactly once, on an arbitrary thread, never synchronously from inside
///   `send` unless the request is rejected before anything is sent (bad URL, bad header, invalidated
///   transport).
/// - Any HTTP response, whatever its status, is `.response` with header names lowercased.
/// - Everything without a complete response (refused or dropped connection, DNS failure, a request
///   that cannot be sent, `request.timeout` elapsing) is `.networkError` with a readable description.
/// - It never throws and never traps.
///
/// Connection reuse: on Linux, Foundation cannot resend a request body, so when a kept-alive
/// connection dies after a POST was written to it (the server crashed, or dropped the request),
/// libcurl's automatic resend stalls until `request.timeout`; a GET is resent silently instead.
/// Either way a dropped connection would not promptly surface as `.networkError`. So on Linux
/// each request uses a fresh connection (`Connection: close`) unless the transport is created
/// with `reusesConnections: true`. Elsewhere connections are reused by default.
public final class URLSessionTransport: Transport {
    /// How many connections the session opens to one host at most.
    public static let maximumConnectionsPerHost = 4

    /// Whether ``init(reusesConnections:)`` keeps connections alive when not told otherwise:
    /// false with swift-corelibs-foundation (Linux), true with Apple's Foundation.
    #if canImport(FoundationNetworking)
    public static let reusesConnectionsByDefault = false
    #else
    public static let reusesConnectionsByDefault = true
    #endif

    /// Longer request timeouts are shortened to this (a year), so that deadline arithmetic here
    /// and inside Foundation cannot overflow.
    static let longestTimeout: Duration = .seconds(365 * 24 * 60 * 60)

    private let session: URLSession
    private let redirects = RedirectPolicy()
    private let reusesConnections: Bool
    /// Set once by ``invalidate()``; sends check it under the lock before creating a task,
    /// because creating a task on an invalidated session is a programming error in Foundation.
    private let isInvalidated = Locked(false)

    /// Creates a transport with its own ephemeral session.
    /// - Parameter reusesConnections: whether requests may share kept-alive connections; see the
    ///   type's documentation for why Linux defaults to false.
    public init(reusesConnections: Bool = reusesConnectionsByDefault) {
        self.reusesConnections = reusesConnections
        session = URLSession(configuration: Self.makeConfiguration(), delegate: redirects, delegateQueue: nil)
    }

    deinit {
        invalidate()
    }

    /// Sends `request`; see the type's documentation for the contract.
    ///
    /// A `Content-Type: application/json` header is added when the request has a body and names
    /// no content type. The whole exchange is bounded by `request.timeout` (at most a year).
    public func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        if let problem = Self.problem(with: request) {
            completion(.networkError(problem))
            return
        }
        guard let url = Self.lowercasingScheme(of: request.url) else {
            completion(.networkError("the URL cannot be sent as it is spelled"))
            return
        }
        let timeout = min(request.timeout, Self.longestTimeout)
        let urlRequest = Self.makeURLRequest(
            for: request, url: url, timeout: timeout, reusesConnection: reusesConnections
        )
        let completion = OneShotCompletion(completion)
        let watchdog = TimeoutWatchdog()
        let redirects = redirects
        let task: URLSessionDataTask? = isInvalidated.withLock { isInvalidated in
            guard !isInvalidated else { return nil }
            let task = session.dataTask(with: urlRequest) { [weak redirects] data, response, error in
                watchdog.disarm()
                completion.deliver(Self.result(data: data, response: response, error: error))
                _ = redirects
            }
            if !request.followsRedirects { redirects.refuse(task.taskIdentifier) }
            return task
        }
        guard let task else {
            completion.deliver(.networkError("the transport was invalidated before the request was sent"))
            return
        }
        watchdog.arm(after: timeout) { [weak task] in
            if completion.deliver(.networkError("no complete response within \(timeout)")) {
                task?.cancel()
            }
        }
        task.resume()
    }

    /// Cancels every request still in flight (each completes with `.networkError`) and releases
    /// the session. Later sends complete at once with `.networkError`. Idempotent; also done on deinit.
    public func invalidate() {
        let wasInvalidated = isInvalidated.withLock { isInvalidated in
            defer { isInvalidated = true }
            return isInvalidated
        }
        if !wasInvalidated {
            session.invalidateAndCancel()
        }
    }
}

// MARK: - Building requests

extension URLSessionTransport {
    private static func makeConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        return configuration
    }

    /// Why `request` cannot be sent, or nil when it can.
    private static func problem(with request: TransportRequest) -> String? {
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            let named = request.url.scheme.map { "'\($0)'" } ?? "(none)"
            return "unsupported URL scheme \(named); only http and https are sent"
        }
        guard let host = request.url.host, !host.isEmpty else {
            return "the URL names no host"
        }
        guard request.method != .get || request.body == nil else {
            return "a GET request cannot carry a body"
        }
        guard request.timeout > .zero else {
            return "the timeout \(request.timeout) is not positive"
        }
        for (name, value) in request.headers {
            guard isValidHeaderName(name) else {
                return "invalid header field name '\(name)'"
            }
            guard isValidHeaderValue(value) else {
                return "invalid value for header field '\(name)'"
            }
        }
        return nil
    }

    /// Whether `name` is a non-empty HTTP token (RFC 9110, section 5.6.2).
    private static func isValidHeaderName(_ name: String) -> Bool {
        let separators: Set<UInt8> = Set("!#$%&'*+-.^_`|~".utf8)
        return !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || separators.contains(byte)
        }
    }

    /// Whether `value` holds no control character other than horizontal tab, so it cannot end
    /// the header line early and smuggle in other fields.
    private static func isValidHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "\t") || (byte >= 0x20 && byte != 0x7F)
        }
    }

    /// `url` with its scheme in lowercase, which is how Foundation on Linux recognises HTTP
    /// (schemes are case-insensitive, so `HTTP://` means the same); nil if it cannot be rebuilt.
    private static func lowercasingScheme(of url: URL) -> URL? {
        guard let scheme = url.scheme, scheme != scheme.lowercased() else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.scheme = scheme.lowercased()
        return components.url
    }

    private static func makeURLRequest(
        for request: TransportRequest,
        url: URL,
        timeout: Duration,
        reusesConnection: Bool
    ) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        // Foundation on Linux truncates this to whole seconds (a 0.2 s timeout fires at once), so
        // it is rounded up here; the watchdog in `send` enforces the exact timeout.
        urlRequest.timeoutInterval = max(1, timeout.timeInterval.rounded(.up))
        for (name, value) in request.headers {
            urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        if !reusesConnection {
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        }
        if let body = request.body {
            urlRequest.httpBody = body
            // Without this, libcurl labels a body application/x-www-form-urlencoded.
            if request.header("Content-Type") == nil {
                urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        return urlRequest
    }
}

// MARK: - Reading results

extension URLSessionTransport {
    private static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> TransportResult {
        if let error {
            return .networkError(describe(error))
        }
        guard let response = response as? HTTPURLResponse else {
            return .networkError("the answer was not an HTTP response")
        }
        return .response(status: response.statusCode, headers: lowercasedHeaders(of: response), body: data ?? Data())
    }

    /// The response's header fields by lowercased name; fields whose names differ only in case
    /// are joined with `", "`.
    private static func lowercasedHeaders(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String else { continue }
            let value = value as? String ?? "\(value)"
            let lowercased = name.lowercased()
            if let existing = headers[lowercased] {
                headers[lowercased] = existing + ", " + value
            } else {
                headers[lowercased] = value
            }
        }
        return headers
    }

    /// A readable description of a failed exchange; never includes the URL, whose query may hold
    /// user data.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else {
            return "request failed: \(error.localizedDescription)"
        }
        let summary: String
        switch error.code {
        case .cannotConnectToHost: summary = "could not connect to the host"
        case .networkConnectionLost: summary = "the connection was lost"
        case .timedOut: summary = "the request timed out"
        case .cancelled: summary = "the request was cancelled"
        case .cannotFindHost, .dnsLookupFailed: summary = "the host name could not be resolved"
        case .notConnectedToInternet: summary = "not connected to the internet"
        case .badServerResponse: summary = "the server sent a malformed response"
        case .secureConnectionFailed: summary = "the TLS handshake failed"
        case .badURL: summary = "the URL is malformed"
        case .unsupportedURL: summary = "the URL is not supported"
        default: summary = "request failed"
        }
        return "\(summary) (URLError \(error.errorCode))"
    }
}

extension Duration {
    /// This duration in seconds, as Foundation's `TimeInterval`.
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// The session's delegate: refuses to follow a redirect for the requests that asked so, whose
/// 3xx response is then their result.
///
/// Unchecked Sendable: its only state is the lock-protected set; Foundation calls it from its
/// delegate queue.
private final class RedirectPolicy: NSObject, URLSessionTaskDelegate, @unchecked Sendable { // state behind a lock
    private let refused = Locked<Set<Int>>([])

    func refuse(_ task: Int) {
        refused.withLock { _ = $0.insert(task) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let refuse = refused.withLock { $0.contains(task.taskIdentifier) }
        completionHandler(refuse ? nil : request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        refused.withLock { _ = $0.remove(task.taskIdentifier) }
    }
}
