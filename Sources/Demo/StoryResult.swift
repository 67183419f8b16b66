import Dispatch
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

extension DemoStory {
    /// Runs the story to completion from synchronous code. The story is async (the SDK's
    /// module hooks and the demo's waits suspend); this thread waits, off the cooperative pool.
    package static func runToCompletion(into directory: String) throws -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let result = StoryResult()
        Task.detached {
            do {
                result.set(.success(try await DemoStory.run(into: directory)))
            } catch {
                result.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return try result.get()
    }
}
