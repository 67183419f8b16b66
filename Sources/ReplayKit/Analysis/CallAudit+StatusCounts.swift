import SDK

extension CallAudit {
    /// Rows handed out, by status (``AuditRow/status``): counted by the outcome's case, without
    /// hashing the status's name once per row.
    package struct StatusCounts: Sendable {
        private var delivered = 0
        private var applied = 0
        private var failed = 0
        private var discarded = 0
        private var pending = 0
        private var lost = 0

        package init() {}

        /// Counts `row` under its status.
        package mutating func count(_ row: AuditRow) {
            switch row.statusCase {
            case .delivered: delivered += 1
            case .applied: applied += 1
            case .failed: failed += 1
            case .discarded: discarded += 1
            case .pending: pending += 1
            case .lost: lost += 1
            }
        }

        /// How many rows have `status`.
        package subscript(status: AuditRow.Status) -> Int {
            switch status {
            case .delivered: delivered
            case .applied: applied
            case .failed: failed
            case .discarded: discarded
            case .pending: pending
            case .lost: lost
            }
        }

        /// The counts by status name; a status no row had is absent.
        package var byName: [String: Int] {
            var counts: [String: Int] = [:]
            for status in AuditRow.Status.allCases where self[status] > 0 { counts[status.rawValue] = self[status] }
            return counts
        }
    }
}
