import Foundation
import LoopbackHTTP

/// The listening side of the sandbox: the loopback HTTP core on 127.0.0.1, each request answered
/// by a ``ConnectionHandler`` on one of its workers.
///
/// Once ``shutdown()`` returns, no thread of this server is running and every socket it opened is closed.
final class HTTPServer: Sendable {
    private let core: LoopbackHTTPServer
    private let lifecycle: ServerLifecycle

    /// The port the server listens on.
    var port: UInt16 {
        core.port
    }

    /// Whether the server still accepts connections.
    var isRunning: Bool {
        !lifecycle.isShuttingDown
    }

    /// Binds a listening socket on 127.0.0.1; call ``start()`` to begin accepting.
    init(api: SandboxAPI, log: RequestLog, limits: HTTPLimits = .standard) throws(SocketError) {
        let lifecycle = ServerLifecycle()
        let handler = ConnectionHandler(api: api, log: log, lifecycle: lifecycle, limits: limits)
        let overloaded = HTTPResponse.apiResult(status: 503, code: "ServiceUnavailable", message: "the sandbox is answering as many requests as it can")
        core = try LoopbackHTTPServer(addresses: ["127.0.0.1"], limits: limits, overloaded: overloaded.serialized(keepAlive: false)) { connection in
            handler.respond(on: connection)
        }
        self.lifecycle = lifecycle
    }

    /// Starts accepting.
    func start() {
        core.start()
    }

    /// Stops accepting, closes every connection (held and delayed requests are abandoned) and joins
    /// all threads. Safe to call more than once and from any thread except the server's own.
    func shutdown() {
        lifecycle.beginShutdown()
        core.shutdown()
    }
}
