import Foundation

/// The listening side of the sandbox: an accept loop on its own thread and one thread per connection.
///
/// Once ``shutdown()`` returns, no thread of this server is running and every socket it opened is closed.
final class HTTPServer: Sendable {
    private let listener: ListeningSocket
    private let lifecycle: ServerLifecycle
    private let api: SandboxAPI
    private let log: RequestLog
    private let limits: HTTPLimits

    /// The port the server listens on.
    var port: UInt16 {
        listener.port
    }

    /// Whether the server still accepts connections.
    var isRunning: Bool {
        !lifecycle.isShuttingDown
    }

    /// Binds a listening socket on 127.0.0.1; call ``start()`` to begin accepting.
    init(api: SandboxAPI, log: RequestLog, limits: HTTPLimits = .standard) throws(SocketError) {
        listener = try ListeningSocket()
        lifecycle = ServerLifecycle(maxConnections: limits.maxConnections)
        self.api = api
        self.log = log
        self.limits = limits
    }

    /// Starts the accept thread.
    func start() {
        lifecycle.spawnThread(named: "SandboxBackend.accept") { [self] in
            acceptConnections()
        }
    }

    /// Stops accepting, closes every connection (held and delayed requests are abandoned) and joins
    /// all threads. Safe to call more than once and from any thread except the server's own.
    func shutdown() {
        lifecycle.beginShutdown()
        listener.shutdown()
        lifecycle.waitForThreads()
        // Covers a server that was never started; otherwise the accept thread already closed it.
        listener.close()
    }

    private func acceptConnections() {
        defer { listener.close() }
        while !lifecycle.isShuttingDown {
            switch listener.accept() {
            case .connection(let descriptor):
                startConnection(descriptor)
            case .retry:
                continue
            case .exhausted:
                // Out of descriptors: give open connections a moment to finish before retrying.
                usleep(10_000)
            case .closed:
                return
            }
        }
    }

    private func startConnection(_ descriptor: Int32) {
        guard lifecycle.admitConnection(descriptor) else {
            SystemSocket.close(descriptor)
            return
        }
        lifecycle.spawnThread(named: "SandboxBackend.connection") { [api, log, lifecycle, limits] in
            let handler = ConnectionHandler(
                socket: ClientSocket(descriptor: descriptor),
                api: api,
                log: log,
                lifecycle: lifecycle,
                limits: limits
            )
            handler.run()
        }
    }
}
