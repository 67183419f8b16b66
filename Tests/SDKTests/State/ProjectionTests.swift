import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

@Suite("Projection, recheck and exactly-once over random stories", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct ProjectionTests {
    @Test("random calls with faults: live state equals a fresh fold at every input; decide reproduces every decision; every completion resolves once",
          arguments: [1, 2, 3, 4] as [UInt64])
    func randomStories(seed: UInt64) async throws {
        let recorder = StateRecorder()
        let harness = try SDKHarness(observer: recorder.observer)
        var story = RandomStory(seed: seed)
        story.run(harness, count: 150, switching: seed > 2)
        await RandomStory.drain(harness)

        // Exactly once, and nothing stranded.
        for (index, outcome) in story.outcomes.enumerated() {
            #expect(outcome.deliveries == 1, "call \(index) resolved \(outcome.deliveries) times")
        }
        for result in story.switches { #expect(result.deliveries == 1) }
        harness.sdk.shutdown()   // every appended fact reaches the file

        let fold = try JournalFold(directory: harness.directory)
        // Projection equality at every input the engine handled.
        var state = SDKState()
        var next = fold.entries.startIndex
        for (live, sequence) in recorder.recorded {
            while next < fold.entries.count, fold.entries[next].sequence <= sequence {
                state.evolve(fold.entries[next].fact, at: fold.entries[next].time)
                next += 1
            }
            let same = StateCodec.encode(state) == StateCodec.encode(live)
            #expect(same, "state differs after sequence \(sequence)")
            if !same { break }
        }
        // Recheck: today's decide makes the same decisions from the recorded inputs.
        let mismatch = fold.recheck()
        #expect(mismatch == nil, "decide differs at sequence \(mismatch?.sequence ?? 0)")
        // Every call in the journal was resolved once.
        var received = Set<CallID>()
        var resolved: [CallID: Int] = [:]
        for entry in fold.entries {
            if case .callReceived(let call) = entry.fact { received.insert(call.id) }
            for (call, _) in entry.fact.resolutions { resolved[call, default: 0] += 1 }
        }
        #expect(Set(resolved.keys) == received)
        #expect(resolved.values.allSatisfy { $0 == 1 })
    }
}
