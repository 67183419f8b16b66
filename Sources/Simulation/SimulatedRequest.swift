import Foundation
import SDK

/// What the simulated backend reads of an HTTP request the engine sent: the key, the base URL
/// (which region's backend it reaches), the path, the body, the token.
struct SimulatedRequest: Sendable {
    /// The `Idempotency-Key` header: `<journal id>-<task number>`.
    var idempotencyKey: String
    /// `GET` or `POST`.
    var method: String
    var apiKey: String
    /// The base URL, through `/api/`.
    var endpoint: String
    var path: String
    /// The URL's query (a message fetch names its user there), if any.
    var query: String?
    var body: [UInt8]
    /// The `Authorization: Bearer` token, if any.
    var token: String?
    /// Not sent: the user the request's task was made for (the `EffectOwner` the engine sent it
    /// for) and the instance (generation), so the backend can tell a JWT issued for another user
    /// or instance.
    var user: String?
    var instance: UInt64

    init(_ request: TransportRequest, user: String?, instance: UInt64) {
        method = request.method.rawValue
        var address = request.url.absoluteString
        query = nil
        if let mark = address.firstIndex(of: "?") {
            query = String(address[address.index(after: mark)...])
            address = String(address[..<mark])
        }
        if let api = address.range(of: "/api/") {
            endpoint = String(address[..<api.upperBound])
            path = String(address[api.upperBound...])
        } else {
            endpoint = address
            path = ""
        }
        // The engine names its headers exactly so (`DeliveryExchange.request(for:...)`).
        func header(_ name: String) -> String? { request.headers.first { $0.name == name }?.value }
        idempotencyKey = header("Idempotency-Key") ?? ""
        apiKey = header("Api-Key") ?? ""
        token = header("Authorization").map { String($0.dropFirst("Bearer ".count)) }
        body = request.body.map { Array($0) } ?? []
        self.user = user
        self.instance = instance
    }
}
