import Locking

/// Whether a writer may need more than an append: a segment is due, or the writer failed or
/// closed. Raised and lowered under the writer's lock, read without it.
///
/// A hint, never the answer: a reader that sees it lowered skips the writer's locked check (one
/// input's rotation may wait for the next input), and one that sees it raised takes the writer's
/// lock and asks the state itself. An atomic word, so a reader never waits for the writer's work
/// and pays no lock on every input.
final class AttentionFlag: Sendable {
    private let raised = AtomicWord(1)

    var isRaised: Bool { raised.load() != 0 }

    func set(_ value: Bool) {
        raised.store(value ? 1 : 0)
    }
}
