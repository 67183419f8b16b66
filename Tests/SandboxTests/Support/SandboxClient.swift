import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Sandbox

/// A response received through URLSession.
struct ClientResponse: Sendable {
    let status: Int
    let body: Data
    private let headers: [String: String]

    init(data: Data, response: URLResponse) throws {
        guard let http = response as? HTTPURLResponse else {
            throw TestClientError(description: "not an HTTP response: \(response)")
        }
        status = http.statusCode
        body = data
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers[name.lowercased()] = value
            }
        }
        self.headers = headers
    }

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    /// The `code` field of an API result body.
    var code: String? {
        json?["code"] as? String
    }

    /// The `msg` field of an API result body.
    var message: String? {
        json?["msg"] as? String
    }
}

/// Talks to a sandbox through a private URLSession, as the SDK under test would.
struct SandboxClient: Sendable {
    let backend: SandboxBackend
    private let session = URLSession(configuration: .ephemeral)

    init(_ backend: SandboxBackend) {
        self.backend = backend
    }

    /// Sends `method` to `<base URL of region><endpoint>` with a JSON body and the given headers.
    func send(
        _ method: String,
        _ endpoint: String,
        region: String,
        apiKey: String?,
        body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> ClientResponse {
        guard let url = URL(string: endpoint, relativeTo: backend.baseURL(region: region)) else {
            throw TestClientError(description: "bad endpoint \(endpoint)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let apiKey {
            request.setValue(apiKey, forHTTPHeaderField: "Api-Key")
        }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: request)
        return try ClientResponse(data: data, response: response)
    }

    func post(
        _ endpoint: String,
        region: String,
        apiKey: String?,
        body: String = "{}",
        headers: [String: String] = [:]
    ) async throws -> ClientResponse {
        try await send("POST", endpoint, region: region, apiKey: apiKey, body: body, headers: headers)
    }

    func get(
        _ endpoint: String,
        region: String,
        apiKey: String?,
        headers: [String: String] = [:]
    ) async throws -> ClientResponse {
        try await send("GET", endpoint, region: region, apiKey: apiKey, headers: headers)
    }

    /// Ends the session; call when the test is done with the client.
    func invalidate() {
        session.invalidateAndCancel()
    }
}
