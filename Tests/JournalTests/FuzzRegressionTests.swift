import FuzzHarness
import Journal
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

    /// fuzz-journal, crash 1: two segments of garbage, one named after sequence 2^64 − 1 (as its
    /// "header" claims). Recovery resumed at that sequence plus the records a frame may hold,
    /// which overflowed. Now the resumed sequence saturates and the writer refuses appends.
    @Test("recovery past a segment named 2^64 - 1 neither overflows nor appends")
    func recoveryPastTheLastSequence() throws {
        let input: [UInt8] = [0x0A] + [UInt8](repeating: 0xFF, count: 52)
        #expect(JournalReaderFuzzer.run(input) == [])

        let storage = InMemoryStorage()
        try storage.createDirectory(at: "/journal")
        storage.setBytes([UInt8](repeating: 0xFF, count: 40), of: "/journal/" + SegmentFormat.segmentFileName(baseSequence: .max))
        var options = JournalOptions()
        options.storage = storage
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
        let writer = try JournalWriter(directory: "/journal", options: options) { _ in [] }
        #expect(writer.recovery.corruption != nil)
        #expect(throws: JournalError.sequenceSpaceExhausted) {
            try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 0), payload: [1, 2, 3])
        }
        try writer.close()
    }
}
