import LoopbackHTTP
import Locking

/// The HTTP/1.1 server of `replay serve`, over the loopback core (``LoopbackHTTPServer``): bound
/// to 127.0.0.1 and ::1 unless told otherwise, one request per connection (`Connection: close`),
/// GET and HEAD only. Every request goes to the handler, which answers from a fixed table of
/// routes: the server itself serves no file.
///
/// It holds by design: a connection that sends nothing or trickles its head costs a descriptor
/// and no thread, and is closed at its deadline or when a newer connection needs its place; a
/// client that never reads its answer holds no worker; at most ``HTTPLimits/workers`` requests
/// are answered at once and a request beyond the backlog gets 503 at once (``serveLimits``).
///
/// It refuses (403) any request whose `Host` header names a host it was not told about,
/// whatever address it is bound to: a page elsewhere reaching it through a DNS name that
/// resolves to this machine (DNS rebinding) gets nothing. The names it answers to are the
/// loopback names, the address it is bound to (unless that is every interface, `0.0.0.0` or
/// `::`) and the names it is given (``allowedHosts``), each with the port bound.
package final class LoopbackServer: Sendable {
    /// The address bound, as given (`127.0.0.1` by default, with `::1` beside it).
    package let host: String
    /// The port bound (the kernel's choice when 0 was asked for).
    package let port: UInt16
    /// The names, lowercased, a request's `Host` header may give besides `127.0.0.1`,
    /// `localhost` and ``host``.
    package let allowedHosts: [String]
    private let handler: @Sendable (HTTPRequestHead) -> HTTPReply
    private let core: Locked<LoopbackHTTPServer?>

    /// The largest request head read (the server answers 431 past it).
    static let maxHeadBytes = 16 * 1024

    /// The limits `replay serve` runs with: a head within 16 KiB and 10 s of its first byte, no
    /// body, 10 s to the first byte, 30 s to write an answer, 8 requests answered at once (each
    /// may fold a journal) and 128 waiting, 4,096 connections (or three quarters of the
    /// descriptor limit).
    package static var serveLimits: HTTPLimits {
        var limits = HTTPLimits()
        limits.maxHeaderSectionBytes = maxHeadBytes
        limits.maxBodyBytes = 0
        limits.idleTimeout = .seconds(10)
        limits.requestTimeout = .seconds(10)
        limits.sendTimeout = .seconds(30)
        limits.workers = 8
        limits.backlog = 128
        limits.maxConnections = 4_096
        // The handler folds journals: the stack of a command's main thread, not 512 KiB.
        limits.workerStackBytes = 8 << 20
        return limits
    }

    /// Whether `host` is a loopback address (`127.x.x.x`, `::1`).
    package static func isLoopback(_ host: String) -> Bool {
        host.hasPrefix("127.") || host == "::1"
    }

    /// Binds `host:port` (port 0: any free port; the default host binds `::1` too, where the
    /// machine has IPv6) and listens; ``start()`` serves.
    package init(host: String = "127.0.0.1", port: UInt16 = 0, allowedHosts: [String] = [], limits: HTTPLimits = serveLimits,
                 handler: @escaping @Sendable (HTTPRequestHead) -> HTTPReply) throws {
        guard LoopbackHTTPServer.isAddressLiteral(host) else { throw ServeError.badAddress(host) }
        self.host = host
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.handler = handler
        let core = Locked<LoopbackHTTPServer?>(nil)
        self.core = core
        // The core's handler, set once this server is whole (it answers through `self`).
        let respond = Locked<(@Sendable (LoopbackConnection) -> ConnectionOutcome)?>(nil)
        let overloaded = HTTPReply.refusal(503, "replay serve is answering as many requests as it can; try again").serialized()
        let server: LoopbackHTTPServer
        do throws(SocketError) {
            server = try LoopbackHTTPServer(addresses: [host], optionalAddresses: host == "127.0.0.1" ? ["::1"] : [], port: port,
                                            limits: limits, overloaded: overloaded) { connection in
                respond.withLock { $0 }?(connection) ?? .close
            }
        } catch {
            throw ServeError.system(error.operation, error.code)
        }
        self.port = server.port
        core.withLock { $0 = server }
        respond.withLock { $0 = { [weak self] connection in self?.respond(on: connection, limits: limits) ?? .close } }
    }

    /// The page's address: `http://127.0.0.1:PORT/`.
    package var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }

    /// The addresses bound (`127.0.0.1` and `::1` by default).
    package var addresses: [String] { core.withLock { $0?.addresses ?? [] } }

    /// Starts answering, on the core's threads, until ``stop()``.
    package func start() {
        core.withLock { $0 }?.start()
    }

    /// Stops: closes the listening sockets and every connection, and waits for the server's threads.
    package func stop() {
        core.withLock { $0 }?.shutdown()
    }

    /// Reads one request off `connection` and answers it; the connection then closes.
    private func respond(on connection: LoopbackConnection, limits: HTTPLimits) -> ConnectionOutcome {
        var parser = HTTPRequestParser(channel: connection, limits: limits)
        let reply: HTTPReply
        var headOnly = false
        do throws(HTTPParseError) {
            guard let request = try parser.nextRequest() else { return .close }
            headOnly = request.method == "HEAD"
            do {
                reply = answer(try HTTPRequestHead(request))
            } catch {
                reply = .refusal(400, "bad request: \(error)")
            }
        } catch {
            guard let refusal = Self.refusal(error) else { return .close }
            reply = refusal
        }
        return .respond(reply.serialized(headOnly: headOnly), keepOpen: false)
    }

    /// The answer to a request that could not be read, or nil when the connection is gone.
    static func refusal(_ error: HTTPParseError) -> HTTPReply? {
        switch error {
        case .connectionClosed, .transport: nil
        case .malformedRequestLine: .refusal(400, "bad request: not an HTTP/1.x request line with a path")
        case .malformedHeader: .refusal(400, "bad request: a malformed header line")
        case .invalidContentLength, .conflictingFraming, .malformedChunkedBody: .refusal(400, "bad request: a malformed body framing")
        case .unsupportedTransferEncoding: .refusal(501, "only the chunked transfer coding is understood")
        case .headerSectionTooLarge: .refusal(431, "the request head is over \(maxHeadBytes) bytes")
        case .bodyTooLarge: .refusal(413, "requests carry no body here")
        }
    }

    /// The handler's answer, unless the method or the `Host` header is refused.
    func answer(_ request: HTTPRequestHead) -> HTTPReply {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .refusal(405, "only GET and HEAD are served")
        }
        guard let named = request.headers["host"], answers(to: named) else {
            let names = hostNames.map { "\($0):\(port)" }.joined(separator: ", ")
            return .refusal(403, "this server answers requests for \(names) only (replay serve --allow-host NAME adds a name)")
        }
        return handler(request)
    }

    /// The names this server answers to, lowercased, without the port.
    var hostNames: [String] {
        var names = ["127.0.0.1", "localhost", "[::1]"]
        let bound = host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
        for name in [bound] + allowedHosts where name != "0.0.0.0" && name != "[::]" && !names.contains(name) { names.append(name) }
        return names
    }

    /// Whether a `Host` header names this server: one of ``hostNames`` with the port bound (or
    /// without a port, when the port is HTTP's default, 80).
    func answers(to header: String) -> Bool {
        let header = header.lowercased()
        let name: Substring
        if let colon = header.lastIndex(of: ":") {
            guard header[header.index(after: colon)...] == Substring(String(port)) else { return false }
            name = header[..<colon]
        } else {
            guard port == 80 else { return false }
            name = Substring(header)
        }
        return hostNames.contains { $0 == name }
    }
}
