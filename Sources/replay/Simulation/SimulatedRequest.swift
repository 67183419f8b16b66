import SDK

/// A request as the simulated transport carries it: what the engine's `EngineLoop.request(for:)`
/// would put in the HTTP request, without building a URL or headers (the SDK's own tests cover
/// those; the backend only needs the key, the base URL, the path, the body and the token).
struct SimulatedRequest: Sendable {
    var task: TaskID
    var attempt: Int
    /// The project the task is bound to (what the journal says it was for).
    var project: ProjectFingerprint
    /// The `Idempotency-Key` header: `<journal id>-<task number>`.
    var idempotencyKey: String
    var apiKey: String
    /// The task's base URL (which region's backend it reaches).
    var endpoint: String
    var path: String
    var body: [UInt8]
    /// The `Authorization: Bearer` token, if any.
    var token: String?
    /// Not sent: the user the SDK was identified as and its instance (generation) when the
    /// request left, so the backend can tell a JWT issued for another user or instance.
    var user: String?
    var instance: UInt64
}
