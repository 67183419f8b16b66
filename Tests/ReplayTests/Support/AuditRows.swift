import Journal
@testable import ReplayKit

/// `replay audit`'s walk in tests: every row of a journal, and the audit's totals.
enum AuditRows {
    static func of(_ reader: JournalReader) throws -> (rows: [AuditRow], audit: CallAudit) {
        let walk = try JournalWalk(reader: reader)
        var rows: [AuditRow] = []
        let audit = CallAudit { rows.append($0) }
        while let record = try walk.next() {
            audit.consume(record, before: walk.state)
            walk.fold(record)
        }
        audit.finish()
        return (rows, audit)
    }
}
