import Locking

/// The `Idempotency-Key`s each project has already answered successfully. A request that
/// repeats one (an SDK re-sending after a crash lost the first answer) is answered `200` again
/// but recorded as a duplicate, the way the platform would dedupe it: so "delivered exactly once"
/// can be judged by what was accepted.
final class IdempotencyLedger: Sendable {
    private let seen = Locked<Set<String>>([])

    /// Records `key` for `project`; false when it was already there.
    func firstUse(of key: String, project: String) -> Bool {
        seen.withLock { $0.insert(project + "\u{0}" + key).inserted }
    }
}
