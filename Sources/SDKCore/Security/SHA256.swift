/// SHA-256 (FIPS 180-4), computed by the system's library (``SHA256State``: CommonCrypto on
/// Apple platforms, OpenSSL's libcrypto on Linux). The SDK uses it for project fingerprints; it
/// never hashes with code of its own.
package enum SHA256 {
    /// The length of a digest in bytes.
    public static let digestLength = 32

    /// The 32-byte SHA-256 digest of `bytes`.
    ///
    /// Never fails for any input. It stops the process only if the system's SHA-256 itself
    /// cannot run, which no input can cause.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var state = SHA256State()
        bytes.withContiguousBytes { state.update(UnsafeRawBufferPointer($0)) }
        return [UInt8](unsafeUninitializedCapacity: digestLength) { output, count in
            state.finish(into: output)
            count = digestLength
        }
    }
}
