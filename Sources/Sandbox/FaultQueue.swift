import Locking

/// Injected faults waiting for matching requests, consumed in the order they were queued.
final class FaultQueue: Sendable {
    private struct Entry {
        let fault: Fault
        let matcher: RequestMatcher
        var remainingUses: Int
    }

    private let entries = Locked<[Entry]>([])

    /// Queues `fault` for the next `times` requests `matcher` selects; does nothing when `times < 1`.
    func enqueue(_ fault: Fault, matching matcher: RequestMatcher, times: Int) {
        guard times > 0 else { return }
        entries.withLock { $0.append(Entry(fault: fault, matcher: matcher, remainingUses: times)) }
    }

    /// Takes one use of the oldest queued fault that matches `subject`, if any.
    func consume(for subject: RequestMatcher.Subject) -> Fault? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.matcher.matches(subject) }) else { return nil }
            let fault = entries[index].fault
            entries[index].remainingUses -= 1
            if entries[index].remainingUses == 0 {
                entries.remove(at: index)
            }
            return fault
        }
    }

    /// Discards every queued fault.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// How many uses are left across all queued faults.
    var pendingCount: Int {
        entries.withLock { $0.reduce(0) { $0 + $1.remainingUses } }
    }
}
