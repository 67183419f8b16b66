#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(CCrypto)
import CCrypto
#else
#error("SHA-256 needs CommonCrypto (Apple platforms) or OpenSSL's libcrypto (Linux: libssl-dev)")
#endif

/// One SHA-256 computation in progress, as a plain value: copying it copies the state, so a
/// prefix hashed once (an HMAC key's pad) is continued by many copies. The system's SHA-256 on
/// each platform: CommonCrypto's `CC_SHA256_*` on Apple platforms, OpenSSL's `SHA256_*` on
/// Linux (docs/PLATFORMS.md, "Hashing"); the known-answer tests hold both to FIPS 180-4's
/// vectors.
struct SHA256State: Sendable {
    #if canImport(CommonCrypto)
    private var context = CC_SHA256_CTX()
    #else
    private var context = SHA256_CTX()
    #endif

    /// A state before any byte.
    init() {
        #if canImport(CommonCrypto)
        let started = CC_SHA256_Init(&context)
        #else
        let started = SHA256_Init(&context)
        #endif
        precondition(started == 1, "the system's SHA-256 could not start")
    }

    /// Feeds `bytes` (its base address may be nil when it is empty).
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CommonCrypto)
        // CommonCrypto takes a 32-bit length: larger inputs go in pieces.
        var offset = 0
        while offset < bytes.count {
            let piece = min(bytes.count - offset, Int(UInt32.max))
            let updated = CC_SHA256_Update(&context, base + offset, CC_LONG(piece))
            precondition(updated == 1, "the system's SHA-256 failed")
            offset += piece
        }
        #else
        let updated = SHA256_Update(&context, base, bytes.count)
        precondition(updated == 1, "the system's SHA-256 failed")
        #endif
    }

    /// Writes the 32-byte digest of everything fed into `output` (room for 32 bytes); the state
    /// is spent afterwards.
    mutating func finish(into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= SHA256.digestLength, "room for a digest")
        #if canImport(CommonCrypto)
        let finished = CC_SHA256_Final(output.baseAddress, &context)
        #else
        let finished = SHA256_Final(output.baseAddress, &context)
        #endif
        precondition(finished == 1, "the system's SHA-256 failed")
    }
}
