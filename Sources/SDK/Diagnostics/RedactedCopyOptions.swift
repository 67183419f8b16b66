import Foundation
import Journal

/// The journal options of a redacted copy (`exportDiagnostics`, `replay export --format journal`):
/// segments rolled only where the original's snapshots are (once at least 1 KiB was written),
/// nothing dropped by retention, the largest records the format allows, group commit without a
/// thread or per-group syncs (the copy is synced when it is closed).
package enum RedactedCopyOptions {
    /// The options; the producer says what made the copy, of which producer (at most 255 bytes).
    package static func make(madeBy maker: String, of producer: String?, journalID: UUID? = nil) -> JournalOptions {
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = 1024
        options.retainedBytes = nil
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        options.groupCommit = GroupCommit(maxRecords: 64, maxDelay: nil, synchronizesEachGroup: false)
        options.journalID = journalID
        options.producer = String("\(maker) of \(producer ?? "unknown")".utf8.prefix(255)) ?? maker
        return options
    }

    /// What `replay export --redact` says it is, first in a copy's producer.
    package static let exportMaker = "replay export (redacted)"
    /// What `exportDiagnostics` says it is, first in a copy's producer.
    package static let diagnosticsMaker = "diagnostics (redacted)"

    /// Whether a journal whose header names `producer` is a redacted copy, made by either.
    package static func isRedactedCopy(producer: String?) -> Bool {
        guard let producer else { return false }
        return [exportMaker, diagnosticsMaker].contains { producer.hasPrefix($0 + " of ") }
    }
}
