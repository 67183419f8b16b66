#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A small HTTP/1.1 server for `replay serve`: bound to 127.0.0.1 unless told otherwise, one
/// thread per connection, one request per connection (`Connection: close`), GET and HEAD only.
/// Every request goes to the handler, which answers from a fixed table of routes: the server
/// itself serves no file.
///
/// It refuses (403) any request whose `Host` header names a host it was not told about,
/// whatever address it is bound to: a page elsewhere reaching it through a DNS name that
/// resolves to this machine (DNS rebinding) gets nothing. The names it answers to are the
/// loopback names, the address it is bound to (unless that is every interface, `0.0.0.0`) and
/// the names it is given (``allowedHosts``), each with the port bound.
package final class LoopbackServer: Sendable {
    /// The address bound, as given (`127.0.0.1` by default).
    package let host: String
    /// The port bound (the kernel's choice when 0 was asked for).
    package let port: UInt16
    /// The names, lowercased, a request's `Host` header may give besides `127.0.0.1`,
    /// `localhost` and ``host``.
    package let allowedHosts: [String]
    private let descriptor: Int32
    private let handler: @Sendable (HTTPRequestHead) -> HTTPReply
    private let state = NSLock()
    // Guarded by `state`: whether the descriptor is still open.
    nonisolated(unsafe) private var isOpen = true

    /// The largest request head read (the server answers 431 past it).
    static let maxHeadBytes = 16 * 1024
    /// How long a connection may take to send its request head.
    static let receiveTimeoutSeconds = 10

    /// Whether `host` is an IPv4 loopback address.
    package static func isLoopback(_ host: String) -> Bool {
        host.hasPrefix("127.")
    }

    /// Binds `host:port` (port 0: any free port) and listens; ``start()`` accepts.
    package init(host: String = "127.0.0.1", port: UInt16 = 0, allowedHosts: [String] = [],
                 handler: @escaping @Sendable (HTTPRequestHead) -> HTTPReply) throws {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        let streamType = SOCK_STREAM
        #else
        let streamType = Int32(SOCK_STREAM.rawValue)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw ServeError.badAddress(host)
        }
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw ServeError.system("socket", errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw ServeError.system(bound == 0 ? "listen" : "bind to \(host):\(port)", code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.host = host
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.port = UInt16(bigEndian: actual.sin_port)
        self.descriptor = descriptor
        self.handler = handler
    }

    /// The page's address: `http://127.0.0.1:PORT/`.
    package var url: String { "http://\(host):\(port)/" }

    /// Accepts connections on a thread of its own until ``stop()``.
    package func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting and closes the listening socket (requests under way finish).
    package func stop() {
        state.lock()
        defer { state.unlock() }
        guard isOpen else { return }
        isOpen = false
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    private func acceptLoop() {
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                state.lock()
                let open = isOpen
                state.unlock()
                if open, errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    usleep(50_000)
                    continue
                }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let thread = Thread { [self] in serve(client) }
            // The handler folds journals: the stack of a command's main thread, not 512 KiB.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Reads one request head from `client`, answers it and closes the connection.
    private func serve(_ client: Int32) {
        defer { close(client) }
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: Self.receiveTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let reply: HTTPReply
        var headOnly = false
        switch readHead(client) {
        case .refused(let refusal):
            reply = refusal
        case .head(let bytes):
            do {
                let request = try HTTPRequestHead.parse(bytes)
                headOnly = request.method == "HEAD"
                reply = answer(request)
            } catch {
                reply = .refusal(400, "bad request: \(error)")
            }
        }
        send(reply.serialized(headOnly: headOnly), to: client)
        linger(client)
    }

    /// Closes the sending side and reads what the client still sends (a head refused midway)
    /// until it closes, for at most a second and a mebibyte: closing with unread bytes would
    /// reset the connection, and the client could lose the answer.
    private func linger(_ client: Int32) {
        _ = shutdown(client, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            drained += count
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
        var names = ["127.0.0.1", "localhost"]
        for name in [host.lowercased()] + allowedHosts where name != "0.0.0.0" && !names.contains(name) { names.append(name) }
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

    /// A request head read whole, or the reply that refuses it.
    private enum HeadRead {
        case head([UInt8])
        case refused(HTTPReply)
    }

    private func readHead(_ client: Int32) -> HeadRead {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return .refused(.refusal(408, "the request head did not arrive")) }
            let searchFrom = max(0, bytes.count - 3)
            bytes.append(contentsOf: chunk[..<count])
            let end = Self.headEnd(bytes, from: searchFrom)
            if (end ?? bytes.count) > Self.maxHeadBytes { return .refused(.refusal(431, "the request head is over \(Self.maxHeadBytes) bytes")) }
            if let end { return .head(Array(bytes[..<end])) }
        }
    }

    /// Where the blank line ending the head begins, searching from `start`.
    static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    private func send(_ bytes: [UInt8], to client: Int32) {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Foundation.send(client, buffer.baseAddress! + offset, buffer.count - offset, flags)
                if sent < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += sent
            }
        }
    }
}
