#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket bound to one address (an IPv4 or IPv6 literal) and listening.
///
/// Owned by the server's poller thread, which accepts on it and closes it exactly once, so a
/// recycled descriptor number is never touched.
final class ListeningSocket {
    /// What a single call to ``accept()`` produced.
    enum AcceptResult: Equatable {
        /// A new connected socket, owned by the caller from now on.
        case connection(Int32)
        /// No connection is waiting.
        case none
        /// A transient failure (interrupted call, aborted handshake); call ``accept()`` again.
        case retry
        /// The process ran out of descriptors or memory.
        case exhausted
        /// The socket failed; stop accepting on it.
        case closed
    }

    /// The address bound, as given.
    let address: String
    /// The port bound (the kernel's choice when 0 was asked for).
    let port: UInt16
    /// The listening descriptor; valid until ``close()``.
    let descriptor: Int32
    private var isOpen = true

    /// Whether `text` is an IPv4 or IPv6 address literal a server can bind.
    static func isAddressLiteral(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Creates, binds `address:port` and starts listening. Throws when any system call fails
    /// (`inet_pton` with `EINVAL` when `address` is not an address literal).
    init(address: String, port: UInt16, backlog: Int32 = 512) throws(SocketError) {
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, address, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, address, &v6) == 1 {
            family = AF_INET6
        } else {
            throw SocketError(operation: "inet_pton(\(address))", code: EINVAL)
        }
        let descriptor = SystemSocket.makeTCP(family: family)
        guard descriptor >= 0 else { throw .lastError("socket") }
        do throws(SocketError) {
            try SocketOptions.enable(SO_REUSEADDR, on: descriptor)
            if family == AF_INET6 {
                // IPv6 only, so that an IPv4 socket can hold the same port.
                try SocketOptions.enable(Int32(IPV6_V6ONLY), level: Int32(IPPROTO_IPV6), on: descriptor)
            }
            let bound = family == AF_INET
                ? SystemSocket.bind(descriptor, to: SystemSocket.socketAddress(v4, port: port))
                : SystemSocket.bind(descriptor, to: SystemSocket.socketAddress(v6, port: port))
            guard bound == 0 else { throw .lastError("bind to \(address):\(port)") }
            guard listen(descriptor, backlog) == 0 else { throw .lastError("listen") }
            guard SystemSocket.makeNonBlocking(descriptor) else { throw .lastError("fcntl") }
            self.port = try Self.boundPort(of: descriptor)
        } catch {
            SystemSocket.close(descriptor)
            throw error
        }
        self.address = address
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Takes one waiting connection, if any, without blocking. The new descriptor is
    /// non-blocking, close-on-exec and never raises `SIGPIPE`.
    func accept() -> AcceptResult {
        guard isOpen else { return .closed }
        let client = SystemSocket.accept(descriptor)
        if client >= 0 {
            SystemSocket.prepareAccepted(client)
            SystemSocket.makeNonBlocking(client)
            try? SocketOptions.enable(Int32(TCP_NODELAY), level: Int32(IPPROTO_TCP), on: client)
            return .connection(client)
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { return .none }
        if SystemSocket.isTransientAcceptError(code) { return .retry }
        switch code {
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
            return .exhausted
        default:
            return .closed
        }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard isOpen else { return }
        isOpen = false
        SystemSocket.close(descriptor)
    }

    private static func boundPort(of descriptor: Int32) throws(SocketError) -> UInt16 {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw .lastError("getsockname") }
        let family = Int32(address.ss_family)
        return withUnsafePointer(to: &address) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }
}
