import FuzzHarness
import Testing

/// Inputs of the replay fuzz target (`fuzz-replay`, docs/FUZZING.md), run through the same
/// harness: the committed seeds, and every input that once crashed it or broke an invariant.
@Suite("fuzz regressions: the replay command line", .serialized, .timeLimit(.minutes(3)))
struct FuzzRegressionTests {
    static let packageRoot = FuzzCorpus.packageRoot(fromTestFile: #filePath)

    @Test("every seed of the replay corpus runs clean")
    func seeds() {
        let seeds = FuzzCorpus.seeds(of: "replay", packageRoot: Self.packageRoot)
        #expect(seeds.count >= 20)
        for seed in seeds {
            #expect(ReplayCommandLineFuzzer.run(seed.bytes) == [], "\(seed.name)")
        }
    }
}
