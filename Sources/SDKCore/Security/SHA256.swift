import CCrypto

/// SHA-256 (FIPS 180-4), computed by OpenSSL's libcrypto. The SDK uses it for project
/// fingerprints; it never hashes with code of its own.
package enum SHA256 {
    /// The length of a digest in bytes.
    public static let digestLength = 32

    /// The 32-byte SHA-256 digest of `bytes`.
    ///
    /// Never fails for any input. It stops the process only if libcrypto itself cannot run (it
    /// could not allocate its context), which no input can cause.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: digestLength)
        var written: UInt32 = 0
        let status = bytes.withContiguousBytes { input in
            output.withUnsafeMutableBufferPointer { digest in
                EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &written, EVP_sha256(), nil)
            }
        }
        precondition(status == 1 && written == UInt32(digestLength), "libcrypto's EVP_Digest failed for SHA-256")
        return output
    }
}
