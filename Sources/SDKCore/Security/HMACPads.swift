/// HMAC-SHA256 (RFC 2104) as two SHA-256 states (``SHA256State``) taken after the key's inner
/// and outer pads: a digest copies them (plain C structs) and feeds the message, then the inner
/// hash, with no context allocated, initialised or freed per digest. The same
/// bytes as ``HMACContext`` under the same key (the key tests hold them to it).
///
/// Holds what the key determines, so treat it like the key: never print or log it.
struct HMACPads: Sendable {
    private var inner = SHA256State()
    private var outer = SHA256State()
    private static let blockLength = 64

    /// The pads of `key`, which is at most one SHA-256 block long (``KeyedHash`` hashes longer
    /// keys first, as RFC 2104 does).
    init(key: [UInt8]) {
        precondition(key.count <= Self.blockLength, "HMAC pads take a key of at most one block")
        var block = [UInt8](repeating: 0, count: Self.blockLength)
        block.replaceSubrange(0..<key.count, with: key)
        func absorb(_ state: inout SHA256State, _ pad: UInt8) {
            let padded = block.map { $0 ^ pad }
            padded.withUnsafeBytes { state.update($0) }
        }
        absorb(&inner, 0x36)
        absorb(&outer, 0x5c)
    }

    /// Writes the 32-byte HMAC of `input` into `output` (which holds at least 32 bytes).
    func digest(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= SHA256.digestLength, "room for a digest")
        var state = inner
        state.update(input)
        state.finish(into: output)
        state = outer
        state.update(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: output[..<SHA256.digestLength])))
        state.finish(into: output)
    }
}
