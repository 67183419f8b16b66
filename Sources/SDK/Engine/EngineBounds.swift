import SDKCore

/// The engine shell's own bounds (the core's rules travel in `EngineRules`, journaled).
enum EngineBounds {
    /// A rotation whose snapshot was too large is tried again after this many more records.
    static let rotationRetryRecords: UInt64 = 1_024
    /// The journal is asked to delete aged records at most this long apart (µs): an hour.
    static let retentionCheckMicroseconds: Int64 = 3_600_000_000
    /// A snapshot estimated larger than this puts a due rotation off (up to twice the segment's
    /// bounds): in a burst the state holds thousands of queued events, and its snapshot (about a
    /// megabyte, costly to encode, hash and compress) is taken once the burst has drained
    /// instead. The steady state's snapshot is a few kilobytes.
    static let largeSnapshotBytes = 64 << 10
    /// How far (µs) the wall clock may read from the journal's time plus the last known offset
    /// before the difference is a jump (`clockJumped`): a second, far above what a clock
    /// disciplined by NTP drifts from the monotonic one between two inputs, far below what a
    /// person or a network setting the date changes.
    static let clockJumpToleranceMicroseconds: Int64 = 1_000_000
    /// The most characters of a server's error message the journal keeps.
    static let serverMessageLimit = 300
}
