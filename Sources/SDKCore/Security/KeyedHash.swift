/// HMAC-SHA256 (RFC 2104) under one secret key, computed by the system's crypto library
/// (CommonCrypto on Apple platforms, OpenSSL's libcrypto on Linux: ``HMACContext``).
///
/// Redacted exports replace personal values with `token(_:kind:)`: equal values give equal
/// tokens under one key, so records stay linkable, while nobody without the key can tell which
/// value a token stands for. Keep the key secret and use a fresh `random()` key per export
/// unless tokens must match across exports. The key never appears in `description`.
package struct KeyedHash: Sendable {
    /// The block size of SHA-256: RFC 2104 replaces longer keys by their hash.
    private static let blockLength = 64
    /// The number of HMAC bytes a token keeps (12 hex characters).
    public static let tokenByteCount = 6

    private let context: HMACContext
    /// The same key's pads, for token hashers.
    private let pads: HMACPads

    /// A keyed hash under `key`. Any length works; use at least 32 random bytes (`random()`)
    /// for redaction, since a short or guessable key lets anyone recompute the tokens.
    public init(key: [UInt8]) {
        // RFC 2104 hashes keys longer than the block size before use, so doing it here gives
        // the same HMAC and keeps every key within the libraries' key lengths.
        let blockKey = key.count > Self.blockLength ? SHA256.digest(key) : key
        context = HMACContext(key: blockKey)
        pads = HMACPads(key: blockKey)
    }

    /// A keyed hash under 32 fresh bytes from the system's random generator (``SystemRandom``:
    /// `SecRandomCopyBytes` on Apple platforms, libcrypto's `RAND_bytes` on Linux).
    /// Throws `CryptoError.randomBytesUnavailable` when the generator has no entropy source;
    /// it never falls back to weaker randomness.
    public static func random() throws(CryptoError) -> KeyedHash {
        var key = [UInt8](repeating: 0, count: 32)
        guard key.withUnsafeMutableBytes(SystemRandom.fill) else { throw .randomBytesUnavailable }
        return KeyedHash(key: key)
    }

    /// The 32-byte HMAC-SHA256 of `bytes` under this key.
    ///
    /// Never fails for any input. It stops the process only if the system's crypto itself cannot
    /// run (it could not allocate its context), which no input can cause.
    public func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: SHA256.digestLength)
        output.withUnsafeMutableBufferPointer { digest in
            if let done: Void = bytes.withContiguousStorageIfAvailable({ context.digest(UnsafeRawBufferPointer($0), into: digest) }) {
                return done
            }
            Array(bytes).withUnsafeBytes { context.digest($0, into: digest) }
        }
        return output
    }

    /// A short, stable stand-in for `value`, such as `email:3f9a1c0b7d2e`: `kind`, a colon, then
    /// the first 6 bytes, in lowercase hex, of the HMAC of `kind`, a zero byte and `value` (all
    /// UTF-8). Equal `kind` and `value` give equal tokens under one key; the same value under a
    /// different kind or key gives an unrelated token. The token never contains `value`.
    public func token(_ value: String, kind: String) -> String {
        Self.token(value, kind: kind, digest: context.digest)
    }

    /// A hasher of this key's tokens for one thread, faster per token (``TokenHasher``).
    package func makeTokenHasher() -> TokenHasher {
        TokenHasher(pads)
    }

    /// The token of ``token(_:kind:)``, with the HMAC computed by `digest` (input, 32-byte
    /// output).
    static func token(_ value: String, kind: String,
                      digest: (UnsafeRawBufferPointer, UnsafeMutableBufferPointer<UInt8>) -> Void) -> String {
        value.utf8.withContiguousBytes { token(utf8: $0, kind: kind, digest: digest) }
    }

    /// The token of ``token(_:kind:)`` for the value whose UTF-8 bytes are `valueBytes`, with the
    /// HMAC computed by `digest`: the message and the digest in one temporary buffer, the
    /// token's text written once.
    static func token(utf8 valueBytes: UnsafeBufferPointer<UInt8>, kind: String,
                      digest: (UnsafeRawBufferPointer, UnsafeMutableBufferPointer<UInt8>) -> Void) -> String {
        kind.utf8.withContiguousBytes { kindBytes in
            let messageLength = kindBytes.count + 1 + valueBytes.count
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: messageLength + SHA256.digestLength) { buffer in
                let base = buffer.baseAddress!
                if let kindStart = kindBytes.baseAddress { base.update(from: kindStart, count: kindBytes.count) }
                base[kindBytes.count] = 0
                if let valueStart = valueBytes.baseAddress {
                    (base + kindBytes.count + 1).update(from: valueStart, count: valueBytes.count)
                }
                let mac = UnsafeMutableBufferPointer(rebasing: buffer[messageLength...])
                digest(UnsafeRawBufferPointer(UnsafeBufferPointer(start: base, count: messageLength)), mac)
                return String(unsafeUninitializedCapacity: kindBytes.count + 1 + 2 * tokenByteCount) { text in
                    _ = text.initialize(fromContentsOf: kindBytes)
                    text[kindBytes.count] = UInt8(ascii: ":")
                    return Hex.write(mac.prefix(tokenByteCount), into: text, at: kindBytes.count + 1)
                }
            }
        }
    }
}

extension KeyedHash: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names the type only; never the key.
    public var description: String { "KeyedHash(HMAC-SHA256, key redacted)" }
    public var debugDescription: String { description }
    /// No children, so `dump` and debuggers show no key bytes either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
