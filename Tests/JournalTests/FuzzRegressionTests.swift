import FuzzHarness
import Testing

/// Inputs of the journal fuzz target (`fuzz-journal`, docs/FUZZING.md), run through the same
/// harness: the committed seeds, and every input that once crashed it or broke an invariant.
@Suite("fuzz regressions: journal reader and recovery")
struct FuzzRegressionTests {
    static let packageRoot = FuzzCorpus.packageRoot(fromTestFile: #filePath)

    @Test("every seed of the journal corpus reads clean")
    func seeds() {
        let seeds = FuzzCorpus.seeds(of: "journal", packageRoot: Self.packageRoot)
        #expect(seeds.count >= 10)
        for seed in seeds {
            #expect(JournalReaderFuzzer.run(seed.bytes) == [], "\(seed.name)")
        }
    }
}
