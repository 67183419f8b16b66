#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Locking

/// A TCP socket bound to 127.0.0.1 on a kernel-chosen (ephemeral) port, listening for connections.
///
/// ``accept()`` is meant to be called from a single accept thread; ``shutdown()`` may be called from
/// any thread to wake that thread up. The descriptor is closed exactly once, by ``close()``, and is
/// never touched after that, so a recycled descriptor number can never be shut down by mistake.
final class ListeningSocket: Sendable {
    /// What a single call to ``accept()`` produced.
    enum AcceptResult: Equatable {
        /// A new connected socket, owned by the caller from now on.
        case connection(Int32)
        /// A transient failure (interrupted call, aborted handshake); call ``accept()`` again.
        case retry
        /// The process ran out of descriptors or memory; back off briefly before retrying.
        case exhausted
        /// The socket was shut down or closed; stop accepting.
        case closed
    }

    /// The port the kernel assigned, read back with `getsockname`.
    let port: UInt16

    private let descriptor: Int32
    private let isOpen = Locked(true)

    /// Creates, binds and starts listening. Throws when any of the system calls fail.
    init(backlog: Int32 = 128) throws(SocketError) {
        let descriptor = SystemSocket.makeTCP()
        guard descriptor >= 0 else { throw .lastError("socket") }
        do throws(SocketError) {
            try SocketOptions.enable(SO_REUSEADDR, on: descriptor)
            try Self.bindToLoopback(descriptor)
            guard listen(descriptor, backlog) == 0 else { throw .lastError("listen") }
            port = try Self.boundPort(of: descriptor)
        } catch {
            SystemSocket.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    /// Blocks until a client connects or the socket is shut down.
    func accept() -> AcceptResult {
        let client = SystemSocket.accept(descriptor)
        if client >= 0 {
            SystemSocket.prepareAccepted(client)
            return .connection(client)
        }
        let code = errno
        if SystemSocket.isTransientAcceptError(code) { return .retry }
        switch code {
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
            return .exhausted
        default:
            return .closed
        }
    }

    /// Wakes a thread blocked in ``accept()`` (which then returns ``AcceptResult/closed``).
    /// Does nothing once the socket is closed.
    func shutdown() {
        isOpen.withLock { isOpen in
            if isOpen {
                SystemSocket.shutdown(descriptor, SystemSocket.stopBoth)
            }
        }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        isOpen.withLock { isOpen in
            if isOpen {
                isOpen = false
                SystemSocket.close(descriptor)
            }
        }
    }

    private static func bindToLoopback(_ descriptor: Int32) throws(SocketError) {
        var address = sockaddr_in()
        SystemSocket.setLength(of: &address)
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw .lastError("bind") }
    }

    private static func boundPort(of descriptor: Int32) throws(SocketError) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                getsockname(descriptor, socketAddress, &length)
            }
        }
        guard result == 0 else { throw .lastError("getsockname") }
        return UInt16(bigEndian: address.sin_port)
    }
}
