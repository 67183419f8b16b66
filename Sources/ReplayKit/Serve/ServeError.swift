#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why `replay serve` could not listen.
package enum ServeError: Error {
    /// `--host` is not an IPv4 or IPv6 address.
    case badAddress(String)
    /// A system call failed, with its errno.
    case system(String, Int32)
}

extension ServeError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .badAddress(let host): "'\(host)' is not an IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
