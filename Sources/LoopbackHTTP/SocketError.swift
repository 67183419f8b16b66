#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A failed socket system call together with the `errno` it reported.
package struct SocketError: Error, Sendable, Equatable {
    /// The system call that failed, e.g. `"bind"`.
    package let operation: String
    /// The `errno` value observed right after the failure.
    package let code: Int32

    /// Captures the current thread's `errno` for `operation`. Call immediately after the failure.
    package static func lastError(_ operation: String) -> SocketError {
        SocketError(operation: operation, code: errno)
    }

    /// Whether the failure is a receive/send timeout set with `SO_RCVTIMEO`/`SO_SNDTIMEO`.
    package var isTimeout: Bool {
        code == EAGAIN || code == EWOULDBLOCK
    }
}

extension SocketError: CustomStringConvertible {
    package var description: String {
        "\(operation) failed with errno \(code)"
    }
}
