#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The socket calls whose spelling differs between Linux and Apple platforms, in one place.
///
/// Linux creates a socket close-on-exec (`SOCK_CLOEXEC`) and keeps a write to a closed peer from
/// raising `SIGPIPE` per call (`MSG_NOSIGNAL`); Apple platforms have neither, so there the
/// descriptor is marked `FD_CLOEXEC` right after it is made and `SO_NOSIGPIPE` is set on it once.
/// The C functions are named by module because the socket types have methods of the same names.
enum SystemSocket {
    /// `how` for ``shutdown(_:_:)``: no more sends.
    static let stopWriting = Int32(SHUT_WR)
    /// `how` for ``shutdown(_:_:)``: no more sends or receives.
    static let stopBoth = Int32(SHUT_RDWR)

    /// A new TCP/IPv4 socket, close-on-exec and never raising `SIGPIPE`; -1 with `errno` set on
    /// failure.
    static func makeTCP() -> Int32 {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        if descriptor >= 0 { prepareAccepted(descriptor) }
        return descriptor
        #else
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
    }

    /// Makes a descriptor `accept` returned close-on-exec (`accept4` is not exported to Swift) and,
    /// on Apple platforms, free of `SIGPIPE`. Failures leave the defaults, which still work.
    static func prepareAccepted(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var enabled: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &enabled, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Sends up to `count` bytes from `bytes` without raising `SIGPIPE`; `send`'s result.
    static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.send(descriptor, bytes, count, 0)
        #else
        Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        #endif
    }

    /// Accepts a connection on a listening socket; the new descriptor, or -1 with `errno` set.
    static func accept(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.accept(descriptor, nil, nil)
        #else
        Glibc.accept(descriptor, nil, nil)
        #endif
    }

    /// Shuts down one or both directions (``stopWriting``, ``stopBoth``); `shutdown`'s result.
    @discardableResult
    static func shutdown(_ descriptor: Int32, _ how: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.shutdown(descriptor, how)
        #else
        Glibc.shutdown(descriptor, how)
        #endif
    }

    /// Closes the descriptor; `close`'s result.
    @discardableResult
    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #else
        Glibc.close(descriptor)
        #endif
    }

    /// Whether `accept` failing with `code` is a network error on the one connection (Linux reports
    /// some of the new connection's errors from `accept`), so accepting again is right.
    static func isTransientAcceptError(_ code: Int32) -> Bool {
        switch code {
        case EINTR, ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH:
            return true
        default:
            #if os(Linux)
            return code == ENONET
            #else
            return false
            #endif
        }
    }

    /// Sets the length field Apple's socket addresses carry (Linux's have none).
    static func setLength(of address: inout sockaddr_in) {
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
    }
}
