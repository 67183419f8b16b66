/// A cryptographic operation could not run. Never caused by the caller's data.
package enum CryptoError: Error, Sendable, Equatable {
    /// libcrypto's random generator could not produce bytes (it found no entropy source).
    case randomBytesUnavailable
}

extension CryptoError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .randomBytesUnavailable:
            "libcrypto's RAND_bytes could not produce random bytes (no entropy source available)"
        }
    }
}
