import FuzzHarness
import Testing

/// Inputs of the fact fuzz target (`fuzz-facts`, docs/FUZZING.md), run through the same
/// harness: the committed seeds, and every input that once crashed it or broke an invariant.
@Suite("fuzz regressions: fact and snapshot codecs, evolve and decide", .timeLimit(.minutes(3)))
struct FuzzRegressionTests {
    static let packageRoot = FuzzCorpus.packageRoot(fromTestFile: #filePath)

    @Test("every seed of the facts corpus decodes, round-trips and folds clean")
    func seeds() {
        let seeds = FuzzCorpus.seeds(of: "facts", packageRoot: Self.packageRoot)
        #expect(seeds.count >= 40)
        for seed in seeds {
            #expect(FactDecoderFuzzer.run(seed.bytes) == [], "\(seed.name)")
        }
    }
}
