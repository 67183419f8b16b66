import CCrypto

/// An HMAC-SHA256 context of its own, keyed once (a duplicate of an ``HMACContext``'s) and
/// initialised again for each digest with the key it holds (`EVP_MAC_init` without a key, which
/// starts from the pads it hashed once): no libcrypto context is allocated per digest.
///
/// Not Sendable: every digest changes the context, so it belongs to one thread at a time.
final class ReusableHMACContext {
    private let context: OpaquePointer

    /// A context keyed like `keyed`.
    init(_ keyed: HMACContext) {
        context = keyed.duplicate()
    }

    deinit {
        EVP_MAC_CTX_free(context)
    }

    /// Writes the 32-byte HMAC of `input` into `output` (which holds at least 32 bytes): the
    /// same bytes as ``HMACContext/digest(_:into:)`` under the same key.
    func digest(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        let started = EVP_MAC_init(context, nil, 0, nil)
        precondition(started == 1, "libcrypto could not restart HMAC-SHA256")
        HMACContext.finish(context, input, into: output)
    }
}
