#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A failed socket system call together with the `errno` it reported.
struct SocketError: Error, Sendable, Equatable {
    /// The system call that failed, e.g. `"bind"`.
    let operation: String
    /// The `errno` value observed right after the failure.
    let code: Int32

    /// Captures the current thread's `errno` for `operation`. Call immediately after the failure.
    static func lastError(_ operation: String) -> SocketError {
        SocketError(operation: operation, code: errno)
    }

    /// Whether the failure is a receive/send timeout set with `SO_RCVTIMEO`/`SO_SNDTIMEO`.
    var isTimeout: Bool {
        code == EAGAIN || code == EWOULDBLOCK
    }
}

extension SocketError: CustomStringConvertible {
    var description: String {
        "\(operation) failed with errno \(code)"
    }
}
