/// A cryptographic operation could not run. Never caused by the caller's data.
package enum CryptoError: Error, Sendable, Equatable {
    /// The system's random generator could not produce bytes (it found no entropy source).
    case randomBytesUnavailable
}

extension CryptoError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .randomBytesUnavailable:
            "\(SystemRandom.name) could not produce random bytes (no entropy source available)"
        }
    }
}
