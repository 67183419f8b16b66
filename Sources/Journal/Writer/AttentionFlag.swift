import Synchronization

/// Whether a writer may need more than an append: a segment is due, or the writer failed or
/// closed. Raised and lowered under the writer's lock, read without it.
///
/// A hint, never the answer: a reader that sees it lowered skips the locked check (one input's
/// rotation may wait for the next input), and one that sees it raised takes the lock and asks
/// the state itself.
final class AttentionFlag: Sendable {
    private let raised = Atomic<Bool>(true)

    var isRaised: Bool { raised.load(ordering: .relaxed) }

    func set(_ value: Bool) {
        raised.store(value, ordering: .relaxed)
    }
}
