/// Which decoder a reader's LZ4 blocks go through.
///
/// Both read every frame of the format, linked blocks or independent; where liblz4 is linked
/// in (Linux) it is the default, being faster, and tests read the same journals through both.
package enum LZ4BlockDecoding: Sendable, Equatable {
    #if canImport(CLZ4)
    /// liblz4's `LZ4_decompress_safe_usingDict`.
    case liblz4
    #endif
    /// ``LZ4BlockDecoder``, in Swift: the only one where liblz4 is not linked in (Apple platforms).
    case swift

    /// liblz4 where it is linked in, the Swift decoder elsewhere.
    package static var platformDefault: LZ4BlockDecoding {
        #if canImport(CLZ4)
        .liblz4
        #else
        .swift
        #endif
    }
}
