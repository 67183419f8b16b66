/// A short, public identifier of a project's API key: the first 8 bytes of the SHA-256 of the
/// key's UTF-8 bytes, written as 16 lowercase hex characters.
///
/// The SDK records, logs and exports fingerprints instead of keys. A fingerprint never reveals
/// its key: SHA-256 cannot be inverted, and API keys are long random strings, so guessing a key
/// from its fingerprint is out of reach. Two different keys share a fingerprint only by a 1 in
/// 2^64 accident. Ordering is byte-wise, the same as ordering the hex forms.
public struct ProjectFingerprint: Sendable, Hashable {
    /// The number of bytes in a fingerprint.
    public static let byteCount = 8

    /// The 8 bytes read as a big-endian integer, so integer order is byte-wise order.
    private let value: UInt64

    /// The fingerprint of `apiKey`. Never stores or returns the key itself.
    public init(apiKey: String) {
        let digest = SHA256.digest(Array(apiKey.utf8))
        self.value = Self.bigEndianValue(digest.prefix(Self.byteCount))
    }

    /// The fingerprint made of exactly these 8 bytes, or nil for any other length.
    public init?(bytes: [UInt8]) {
        self.init(bytes: bytes[...] as ArraySlice<UInt8>)
    }

    /// The fingerprint made of exactly these 8 bytes, or nil for any other length (a decoder's
    /// view of its input, not copied).
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.value = Self.bigEndianValue(bytes)
    }

    /// The fingerprint spelled by `hex`, its 16-character lowercase hex form, or nil for any
    /// other text (wrong length, uppercase, non-hex characters).
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The hash a `Dictionary` or `Set` keyed by fingerprints reads, computed directly from the
    /// one word (``SplitMixWordHash``, as ``CallID`` does) instead of through SipHash: every track call
    /// looks its project's queue up to batch its event. A bijection of the word for a given seed,
    /// so distinct fingerprints never share the full hash, wherever they came from.
    public func _rawHashValue(seed: Int) -> Int {
        SplitMixWordHash.value(of: value, seed: seed)
    }

    /// The 8 bytes, first byte first.
    public var bytes: [UInt8] {
        withBytes { Array($0) }
    }

    /// Calls `body` with the 8 bytes, first byte first, without copying them into an array
    /// (the codec's path: every gate decision and resolution carries a fingerprint).
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: value.bigEndian, body)
    }

    /// The 16-character lowercase hex form, e.g. `2c70e12b7a0646f9`.
    public var hex: String { withBytes { Hex.encode($0) } }

    /// Appends ``hex``'s 16 characters to `output`, without making the string.
    package func writeHex(to output: inout ScratchBytes) {
        output.appendWriting(atMost: 2 * Self.byteCount) { text in
            Hex.write(UInt32(truncatingIfNeeded: value >> 32), at: UnsafeMutableRawPointer(text))
            Hex.write(UInt32(truncatingIfNeeded: value), at: UnsafeMutableRawPointer(text + 8))
            return 2 * Self.byteCount
        }
    }

    private static func bigEndianValue(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.reduce(0) { partial, byte in partial << 8 | UInt64(byte) }
    }
}

extension ProjectFingerprint: Comparable {
    public static func < (lhs: ProjectFingerprint, rhs: ProjectFingerprint) -> Bool {
        lhs.value < rhs.value
    }
}

extension ProjectFingerprint: CustomStringConvertible {
    /// The hex form.
    public var description: String { hex }
}

extension ProjectFingerprint: Codable {
    /// Decodes the hex form; fails with `DecodingError.dataCorrupted` for anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let fingerprint = ProjectFingerprint(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a project fingerprint is 16 lowercase hex characters"
            )
        }
        self = fingerprint
    }

    /// Encodes the hex form as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
