#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(CCrypto)
import CCrypto
#else
#error("HMAC-SHA256 needs CommonCrypto (Apple platforms) or OpenSSL's libcrypto (Linux: libssl-dev)")
#endif

/// The system's HMAC-SHA256 keyed once, which every digest copies rather than keying a new one:
/// the one-shot calls look the algorithm up and hash the key's pads again on every call, which
/// would be most of a token's cost. OpenSSL's `EVP_MAC` on Linux (the keyed context duplicated
/// with `EVP_MAC_CTX_dup`), CommonCrypto's `CCHmac*` on Apple platforms (its context a plain
/// struct, copied). ``HMACPads`` computes the same bytes from SHA-256 alone; the key tests hold
/// the two to each other and to RFC 4231.
///
/// Never fails after `init`, for any input; it stops the process only if the system's crypto
/// itself cannot run (it could not allocate a context), which no input can cause.
final class HMACContext: @unchecked Sendable { // the keyed context is written only in init (and freed in deinit); in between it is only read, copied by each digest
    #if canImport(CommonCrypto)
    private let keyed: CCHmacContext
    #else
    private let keyed: OpaquePointer
    #endif

    /// An HMAC-SHA256 context under `key` (any length, empty included: RFC 2104 pads it).
    init(key: [UInt8]) {
        #if canImport(CommonCrypto)
        var context = CCHmacContext()
        key.withUnsafeBytes { keyBytes in
            CCHmacInit(&context, CCHmacAlgorithm(kCCHmacAlgSHA256), keyBytes.baseAddress, keyBytes.count)
        }
        keyed = context
        #else
        keyed = Self.openSSLContext(key: key)
        #endif
    }

    deinit {
        #if !canImport(CommonCrypto)
        EVP_MAC_CTX_free(keyed)
        #endif
    }

    /// Writes the 32-byte HMAC of `input` into `output` (which holds at least 32 bytes).
    func digest(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= SHA256.digestLength, "room for a digest")
        #if canImport(CommonCrypto)
        var context = keyed
        CCHmacUpdate(&context, input.baseAddress, input.count)
        CCHmacFinal(&context, output.baseAddress)
        #else
        guard let context = EVP_MAC_CTX_dup(keyed) else { preconditionFailure("libcrypto could not copy an HMAC context") }
        defer { EVP_MAC_CTX_free(context) }
        var written = 0
        let updated = EVP_MAC_update(context, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count)
        let finished = EVP_MAC_final(context, output.baseAddress, &written, output.count)
        precondition(updated == 1 && finished == 1 && written == SHA256.digestLength, "libcrypto's HMAC failed for SHA-256")
        #endif
    }

    #if !canImport(CommonCrypto)
    /// libcrypto's HMAC keyed with `key` for SHA-256 (`EVP_MAC_init`).
    private static func openSSLContext(key: [UInt8]) -> OpaquePointer {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { preconditionFailure("libcrypto has no HMAC") }
        defer { EVP_MAC_free(mac) }
        guard let keyed = EVP_MAC_CTX_new(mac) else { preconditionFailure("libcrypto could not allocate an HMAC context") }
        // libcrypto treats a null key as "no key set", so an empty key is passed as a valid
        // pointer with length zero.
        var emptyKeyStandIn: UInt8 = 0
        var digestName = Array("SHA256".utf8CString)
        let status = "digest".withCString { parameter in
            digestName.withUnsafeMutableBufferPointer { name in
                var parameters = [OSSL_PARAM_construct_utf8_string(parameter, name.baseAddress, 0), OSSL_PARAM_construct_end()]
                return key.withUnsafeBufferPointer { keyBytes in
                    withUnsafePointer(to: &emptyKeyStandIn) { standIn in
                        EVP_MAC_init(keyed, keyBytes.baseAddress ?? standIn, keyBytes.count, &parameters)
                    }
                }
            }
        }
        precondition(status == 1, "libcrypto could not key HMAC-SHA256")
        return keyed
    }
    #endif
}
