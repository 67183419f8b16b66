import Journal

/// What a power loss leaves after the last synchronized byte of each journal file (see
/// `InMemoryStorage.LossTail`).
package enum CrashTail: Sendable, Hashable {
    case clean
    /// The first `bytes` written after the last sync survived (a torn write).
    case tornWrite(bytes: Int)
    /// Blocks allocated but never written.
    case zeros(bytes: Int)
    /// Garbage from the disk.
    case garbage(bytes: Int, seed: UInt64)

    var lossTail: InMemoryStorage.LossTail {
        switch self {
        case .clean: .clean
        case .tornWrite(let bytes): .unsyncedPrefix(bytes)
        case .zeros(let bytes): .zeros(bytes)
        case .garbage(let bytes, let seed): .garbage(bytes, seed: seed)
        }
    }
}
