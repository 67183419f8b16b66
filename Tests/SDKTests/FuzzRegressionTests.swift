import FuzzHarness
import Testing

/// Inputs of the fact fuzz target (`fuzz-facts`, docs/FUZZING.md), run through the same
/// harness: the committed seeds, and every input that once crashed it or broke an invariant.
@Suite("fuzz regressions: fact and snapshot codecs, evolve and decide", .timeLimit(.minutes(3)))
struct FuzzRegressionTests {
    static let packageRoot = FuzzCorpus.packageRoot(fromTestFile: #filePath)

    /// fuzz-facts, crash 1 (a fresh clone's CI smoke, 2026-12-02): a snapshot whose counters
    /// (queued bytes, the gate's bytes) hold hostile values; re-encoding it asked for a buffer of
    /// a negative size, from the hint of its size taken from them, and trapped.
    @Test("a snapshot with hostile counters re-encodes without trapping")
    func snapshotWithHostileCounters() {
        let input: [UInt8] = [
            0xff, 0x00, 0x36, 0x10, 0x00, 0x1a, 0x18, 0x08, 0x80, 0x40, 0x10, 0xa0, 0x1f, 0xd0, 0x0f, 0x38,
            0x80, 0x80, 0x40, 0x32, 0x00, 0x60, 0x00, 0x80, 0x01, 0x00, 0x98, 0x01, 0x00, 0xa0, 0x25, 0x01,
            0x01, 0xc8, 0x80, 0x40, 0x22, 0x00, 0x60, 0x00, 0x80, 0x01, 0x00, 0x98, 0x01, 0xfb, 0x9f, 0x01,
            0x01, 0xc8, 0x01, 0x7e, 0xe2, 0x01, 0x01, 0x7e, 0xe2, 0x01, 0x04, 0x10, 0x00, 0x30, 0x01, 0xe8,
            0x01, 0x00,
        ]
        #expect(FactDecoderFuzzer.run(input) == [])
    }

    /// fuzz-facts, invariant 1 (a 20-minute run, 2026-12-06, stopped after 12 minutes and about
    /// 1,455,000 inputs): a call received while the user declined came back without its personal
    /// values, and the invariant expected it back as it was. `decide` returns a received call in its journaled
    /// form (`SDKState.journaledForm(of:)`), a fixed point that decides as the call did; and a
    /// journal's `oversized` call, received while declined, is no longer emptied of its reason.
    @Test("a call received while the user declined comes back in its journaled form, a fixed point", arguments: FactRegressions.all.map(\.name))
    func declinedCalls(name: String) throws {
        let input = try #require(FactRegressions.all.first { $0.name == name }?.bytes)
        #expect(input.count > 20)
        #expect(FactDecoderFuzzer.run(input) == [])
    }

    @Test("every seed of the facts corpus decodes, round-trips and folds clean")
    func seeds() {
        let seeds = FuzzCorpus.seeds(of: "facts", packageRoot: Self.packageRoot)
        #expect(seeds.count >= 40)
        for seed in seeds {
            #expect(FactDecoderFuzzer.run(seed.bytes) == [], "\(seed.name)")
        }
    }
}
