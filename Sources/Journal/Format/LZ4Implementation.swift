/// Whose LZ4 code compresses and decodes a journal's blocks: liblz4's, or this package's own in
/// Swift (``LZ4BlockDecoder``, ``SwiftLZ4Compressor``).
///
/// Both read every frame of the format and write the same format. liblz4, faster, is the
/// default where it is linked in (Linux, macOS); Swift is the only one elsewhere (iOS), and
/// tests on Linux run it on the same journals (`JournalReader.lz4Implementation`,
/// `JournalOptions.lz4Implementation`).
package enum LZ4Implementation: Sendable, Equatable {
    #if canImport(CLZ4)
    /// liblz4's block API.
    case liblz4
    #endif
    /// This package's LZ4 in Swift.
    case swift

    /// liblz4 where it is linked in, Swift elsewhere.
    package static var platformDefault: LZ4Implementation {
        #if canImport(CLZ4)
        .liblz4
        #else
        .swift
        #endif
    }
}
