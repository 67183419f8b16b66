#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Thin wrappers around `setsockopt` for the handful of options the server uses.
package enum SocketOptions {
    /// Turns on a boolean option such as `SO_REUSEADDR` or `TCP_NODELAY`.
    package static func enable(_ option: Int32, level: Int32 = SOL_SOCKET, on descriptor: Int32) throws(SocketError) {
        var enabled: Int32 = 1
        let result = setsockopt(descriptor, level, option, &enabled, socklen_t(MemoryLayout<Int32>.size))
        guard result == 0 else { throw .lastError("setsockopt") }
    }

    /// Sets a time-valued option such as `SO_RCVTIMEO`; non-positive durations are rounded up to 1 ms
    /// because a zero timeout means "wait forever" to the kernel.
    package static func setTimeout(_ option: Int32, to duration: Duration, on descriptor: Int32) throws(SocketError) {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, attoseconds / 1_000_000_000_000)
        var value = timeval(tv_sec: .init(max(0, seconds)), tv_usec: .init(microseconds))
        if value.tv_sec == 0 && value.tv_usec == 0 {
            value.tv_usec = 1_000
        }
        let result = setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
        guard result == 0 else { throw .lastError("setsockopt") }
    }
}
