#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why `replay serve` could not listen.
package enum ServeError: Error, CustomStringConvertible {
    /// `--host` is not an IPv4 address.
    case badAddress(String)
    /// A system call failed, with its errno.
    case system(String, Int32)

    package var description: String {
        switch self {
        case .badAddress(let host): "'\(host)' is not an IPv4 address such as 127.0.0.1"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
