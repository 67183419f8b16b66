#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(CCrypto)
import CCrypto
#else
#error("the sandbox's key fingerprints need CommonCrypto (Apple platforms) or OpenSSL's libcrypto (Linux: libssl-dev)")
#endif

/// A project's key fingerprint as journals and receipt logs name it: the first 8 bytes of the
/// SHA-256 of the API key, 16 lowercase hex digits (the SDK's `ProjectFingerprint`). Never
/// stores or returns the key.
enum KeyFingerprint {
    static func hex(of apiKey: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let bytes = Array(apiKey.utf8)
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                #if canImport(CommonCrypto)
                _ = CC_SHA256(input.baseAddress, CC_LONG(input.count), output.baseAddress)
                #else
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
                #endif
            }
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest.prefix(8) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
