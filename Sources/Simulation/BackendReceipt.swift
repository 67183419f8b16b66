import Journal
import SDK

/// A request the simulated backend processed (answered 2xx): which project received it, by the
/// API key it carried, and under which idempotency key.
struct BackendReceipt: Sendable {
    var idempotencyKey: String
    var project: ProjectFingerprint
    var path: String
    var body: [UInt8]
    var time: JournalTime
}
