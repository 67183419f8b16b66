/// A request path of the form `/<region>/api/<endpoint>`, split into its parts.
struct APIRoute: Sendable, Equatable {
    /// The region segment, e.g. `"eu"`.
    let region: String
    /// Everything after `/api/`, e.g. `"users/update"`; may name an unknown endpoint.
    let endpoint: String

    init(region: String, endpoint: String) {
        self.region = region
        self.endpoint = endpoint
    }

    /// Splits `path`; nil when it does not have the API's shape.
    init?(path: String) {
        guard path.hasPrefix("/") else { return nil }
        let segments = path.dropFirst().split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard segments.count == 3, !segments[0].isEmpty, segments[1] == "api", !segments[2].isEmpty else {
            return nil
        }
        region = String(segments[0])
        endpoint = String(segments[2])
    }
}
