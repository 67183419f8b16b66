import Foundation
import ReplayKit

extension AuditCommand {
    /// Whether `row`, of the journal whose id is `stream`, passes `--call` and `--project` (a
    /// call made on, or delivered to, the project).
    func shows(_ row: AuditRow, stream: UUID?) -> Bool {
        guard calls.isEmpty || calls.contains(where: { $0.matches(row, stream: stream) }) else { return false }
        guard let project else { return true }
        return (row.liveAtCall.map { project.matches($0, labels: row.labels) } ?? false)
            || (row.deliveredTo.map { project.matches($0, labels: row.labels) } ?? false)
    }
}
