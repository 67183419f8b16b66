import Foundation
import TestSupport

/// The demo's journal, made once per test run by `replay demo` itself and shared by every test
/// that reads it (read-only).
///
/// The command blocks its thread until the story ends, and the story needs the cooperative
/// pool (the SDK runs awaited module hooks there), so it runs on a thread of its own rather
/// than on one of the pool's few threads.
actor DemoFixture {
    static let shared = DemoFixture()

    struct Made: Sendable {
        /// The journal directory.
        var journal: String
        /// What `replay demo --out <journal>` printed.
        var run: ReplayRun
    }

    private var made: Task<Made, Never>?

    /// The demo journal, made on first use.
    func journal() async -> Made {
        if let made { return await made.value }
        let task = Task { await Self.make() }
        made = task
        return await task.value
    }

    /// Runs `replay arguments` on a thread off the cooperative pool.
    static func runOffPool(_ arguments: [String]) async -> ReplayRun {
        await onOwnThread { ReplayHarness.run(arguments) }
    }

    private static func make() async -> Made {
        let directory = TemporaryDirectory.uniquePath("replay-demo")
        let run = await runOffPool(["demo", "--out", directory])
        return Made(journal: directory, run: run)
    }
}
