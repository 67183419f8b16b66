import Foundation
import SDKCore

/// An HTTP request the SDK wants sent.
public struct TransportRequest: Sendable, Equatable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: URL
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The JSON body of a POST.
    public var body: Data?
    /// How long to wait for the whole exchange before reporting a network error.
    public var timeout: Duration
    /// Whether a redirect is followed (false: the 3xx response itself is the result, as when a
    /// tracked link is resolved).
    public var followsRedirects: Bool

    public init(method: Method, url: URL, headers: [(name: String, value: String)], body: Data?, timeout: Duration = .seconds(30),
                followsRedirects: Bool = true) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.followsRedirects = followsRedirects
    }

    public static func == (lhs: TransportRequest, rhs: TransportRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.timeout == rhs.timeout
            && lhs.followsRedirects == rhs.followsRedirects
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// The value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What came back for a request: a response, or no response at all.
public enum TransportResult: Sendable, Equatable {
    /// An HTTP response with its status, headers (names lowercased) and body.
    case response(status: Int, headers: [String: String], body: Data)
    /// No response: connection refused or dropped, DNS failure, timeout.
    case networkError(String)
}

/// Sends HTTP requests. The SDK never blocks on it: `completion` is called exactly once, on any
/// thread, and its result enters the engine as an input.
public protocol Transport: Sendable {
    func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void)
}
