
/// Why ``EngagementSDK/exportDiagnostics(to:byteBudget:completion:)`` wrote no copy. Each case
/// names the path it is about.
public enum DiagnosticsExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination exists and is not an empty directory.
    case destinationExists(String)
    /// The budget cannot hold even the manifest (the smallest is a few KiB: the manifest and one segment header).
    case budgetTooSmall(Int)
    /// The journal could not be opened or read (the text says what and where).
    case journalUnreadable(String)
    /// The copy could not be written (the text says what and where).
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .destinationExists(let path): "\(path) already exists and is not an empty directory"
        case .budgetTooSmall(let budget): "a byte budget of \(budget) cannot hold a diagnostics copy (at least \(DiagnosticsCopier.minimumByteBudget))"
        case .journalUnreadable(let reason): "the journal could not be read: \(reason)"
        case .cannotWrite(let reason): "the copy could not be written: \(reason)"
        }
    }
}
