import Locking

/// Carries the story's result from its task to the waiting thread.
final class StoryResult: Sendable {
    private let value = Locked<Result<DemoStory.Outcome, any Error>?>(nil)

    func set(_ result: Result<DemoStory.Outcome, any Error>) {
        value.withLock { $0 = result }
    }

    func get() throws -> DemoStory.Outcome {
        guard let result = value.withLock({ $0 }) else { throw DemoStory.Failure.setup("the story did not finish") }
        return try result.get()
    }
}
