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
package enum SystemSocket {
    /// `how` for ``shutdown(_:_:)``: no more sends.
    static let stopWriting = Int32(SHUT_WR)
    /// `how` for ``shutdown(_:_:)``: no more sends or receives.
    static let stopBoth = Int32(SHUT_RDWR)

    /// A new TCP socket of `family` (`AF_INET` or `AF_INET6`), close-on-exec and never raising
    /// `SIGPIPE`; -1 with `errno` set on failure.
    static func makeTCP(family: Int32 = AF_INET) -> Int32 {
        #if canImport(Darwin)
        let descriptor = socket(family, SOCK_STREAM, 0)
        if descriptor >= 0 { prepareAccepted(descriptor) }
        return descriptor
        #else
        return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
    }

    /// Makes `descriptor` non-blocking: its reads and writes then wait in ``wait(for:on:until:)``,
    /// which has a deadline. Returns whether it worked.
    @discardableResult
    static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Waits until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`) or `deadline` passes.
    /// Returns false on the deadline; true when ready, closed by the peer or in error (the next
    /// call on it says which). Interrupted waits resume.
    static func wait(for events: Int32, on descriptor: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let milliseconds = Self.milliseconds(until: deadline)
            if milliseconds == 0 { return false }
            var entry = pollfd(fd: descriptor, events: Int16(events), revents: 0)
            let result = poll(&entry, 1, Int32(milliseconds))
            if result > 0 { return true }
            if result < 0 && errno == EINTR { continue }
            if result < 0 { return true }
        }
    }

    /// Milliseconds from now to `deadline`, rounded up and at most a minute (0 once it passed).
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        guard seconds < 60 else { return 60_000 }
        return Int(seconds) * 1_000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// A pipe whose ends are close-on-exec and non-blocking: the poller's wake-up line.
    static func makeWakePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            makeNonBlocking(end)
        }
        return (ends[0], ends[1])
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

    /// Binds the socket to `address` (a `sockaddr_in` or a `sockaddr_in6`, passed as the
    /// `sockaddr` it begins with, with its size); `bind`'s result.
    static func bind<Address>(_ descriptor: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Darwin)
                Darwin.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
                #else
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
                #endif
            }
        }
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

    /// The IPv4 socket address of `host` and `port`, with the length field Apple's socket
    /// addresses carry (Linux's have none).
    static func socketAddress(_ host: in_addr, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = host
        return address
    }

    /// The IPv6 socket address of `host` and `port`, with the length field Apple's socket
    /// addresses carry (Linux's have none).
    static func socketAddress(_ host: in6_addr, port: UInt16) -> sockaddr_in6 {
        var address = sockaddr_in6()
        #if canImport(Darwin)
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = host
        return address
    }

    /// The process's soft limit on open descriptors, or nil when unlimited or unknown.
    static func descriptorLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Darwin)
        let resource = RLIMIT_NOFILE
        #else
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #endif
        // RLIM_INFINITY is all ones: past any count worth lowering a limit to.
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let current = Int(clamping: limit.rlim_cur)
        return current < Int(Int32.max) ? current : nil
    }
}
