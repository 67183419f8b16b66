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

        package init() {}

        /// Counts `row` under its status.
        package mutating func count(_ row: AuditRow) {
            switch row.outcome {
            case .delivered?: delivered += 1
            case .applied?: applied += 1
            case .failed?: failed += 1
            case .discarded?: discarded += 1
            case nil: pending += 1
            }
        }

        /// The counts by status name; a status no row had is absent.
        package var byName: [String: Int] {
            var counts: [String: Int] = [:]
            for (name, count) in [("delivered", delivered), ("applied", applied), ("failed", failed), ("discarded", discarded),
                                  ("pending", pending)] where count > 0 {
                counts[name] = count
            }
            return counts
        }
    }
}
