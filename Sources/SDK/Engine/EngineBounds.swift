import SDKCore

/// The engine shell's own bounds (the core's rules travel in `EngineRules`, journaled).
enum EngineBounds {
    /// A rotation whose snapshot was too large is tried again after this many more records.
    static let rotationRetryRecords: UInt64 = 1_024
    /// The most characters of a server's error message the journal keeps.
    static let serverMessageLimit = 300
}
