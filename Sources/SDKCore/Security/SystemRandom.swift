#if canImport(Security)
import Security
#elseif canImport(CCrypto)
import CCrypto
#else
#error("random keys need Security (Apple platforms) or OpenSSL's libcrypto (Linux: libssl-dev)")
#endif

/// The system's cryptographic random generator: `SecRandomCopyBytes` on Apple platforms,
/// OpenSSL's `RAND_bytes` on Linux. Never a weaker fallback.
enum SystemRandom {
    /// The name of the generator, for error messages.
    static let name: String = {
        #if canImport(Security)
        "SecRandomCopyBytes"
        #else
        "libcrypto's RAND_bytes"
        #endif
    }()

    /// Fills `buffer` with random bytes; false when the generator could not produce them.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return true }
        #if canImport(Security)
        return SecRandomCopyBytes(kSecRandomDefault, buffer.count, base) == errSecSuccess
        #else
        return buffer.count <= Int(Int32.max)
            && RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1
        #endif
    }
}
