
/// What ``EngagementSDK/exportDiagnostics(to:byteBudget:completion:)`` wrote: a redacted copy of
/// the newest part of the journal, readable by every `replay` command, with a manifest
/// (`diagnostics.json`) saying what was left out.
public struct DiagnosticsExport: Sendable, Equatable {
    /// The directory holding the copy (segment files, index files and `diagnostics.json`).
    public var directory: String
    /// The most bytes the copy was allowed to take.
    public var byteBudget: Int
    /// The bytes the copy's files take, manifest included; never more than ``byteBudget``.
    public var bytes: Int
    /// Records written (snapshots and facts).
    public var records: Int
    /// Records that could not be decoded: kept with their kind and an empty payload.
    public var emptiedRecords: Int
    /// Journal segments copied (the newest that fit the budget) and left out (older ones).
    public var segmentsCopied: Int
    public var segmentsLeftOut: Int
    /// The original journal's sequence number of the first record copied (nil when none was).
    public var firstOriginalSequence: UInt64?
}
