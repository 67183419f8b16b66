import Testing

/// The transports that carry the SDK's HTTP requests: `URLSessionTransport` against a loopback
/// sandbox, and `InProcessTransport`. Run them alone with `swift test --filter TransportTests`.
@Suite("TransportTests", .timeLimit(.minutes(3)))
enum TransportTests {}
