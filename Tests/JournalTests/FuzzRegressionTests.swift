import Foundation
import FuzzHarness
import Journal
import Testing

/// Inputs of the journal fuzz target (`fuzz-journal`, docs/FUZZING.md), run through the same
/// harness: the committed seeds, and every input that once crashed it or broke an invariant.
@Suite("fuzz regressions: journal reader and recovery", .timeLimit(.minutes(3)))
struct FuzzRegressionTests {
    static let packageRoot = FuzzCorpus.packageRoot(fromTestFile: #filePath)

    /// Inputs too long to inline, kept byte for byte in `Fixtures/fuzz-journal/`.
    static func fixture(_ name: String) throws -> [UInt8] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/fuzz-journal/" + name
        return [UInt8](try #require(FileManager.default.contents(atPath: path)))
    }

    /// Sixty records in one segment of at least three frames: its storage, sync points and path.
    static func oneSegmentOfSixtyRecords() throws -> (InMemoryStorage, [IndexEntry], String) {
        let storage = InMemoryStorage()
        try FixtureJournal.writeRaw(to: "/journal", storage: storage,
                                    payloads: (0..<60).map { Array("record \($0) \(String(repeating: "ab", count: $0))".utf8) },
                                    segmentBytes: 1 << 20)
        let reader = try JournalReader(directory: "/journal", storage: storage)
        let points = try reader.syncPoints(ofSegment: 0)
        try #require(reader.segments.count == 1 && points.count >= 3)
        return (storage, points, "/journal/" + reader.segments[0].name)
    }

    /// The journal directory a fuzz input describes, in memory, and a writer that recovered it.
    static func writerRecovering(_ input: [UInt8]) throws -> (InMemoryStorage, JournalWriter) {
        let storage = InMemoryStorage()
        try storage.createDirectory(at: "/journal")
        for file in try #require(JournalFuzzInput(input)?.files()) { storage.setBytes(file.bytes, of: "/journal/" + file.name) }
        var options = JournalOptions()
        options.storage = storage
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
        return (storage, try JournalWriter(directory: "/journal", options: options) { _ in [1] })
    }

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

    /// fuzz-journal, invariant 1: a segment holding only its header, whose header allows records
    /// of 0 bytes. Recovery wrote the snapshot and the next record into it anyway, and readers,
    /// which hold a segment to its header's limits, saw a torn tail instead of either.
    @Test("a segment whose header allows smaller records than the writer's is left, not appended to")
    func recoveryRespectsTheSegmentsLimits() throws {
        let input = [UInt8](Data(base64Encoded: "BEBQKk0YSQAAAEpSTkwAAAAAAAA0Ks+4AAAAAAAAAAA0SCrPuBEAAAAAAAA0SCrPuAA0SCrPuEgqz7gAAAAAAAAAADRIKs8RAAAAAAAANEgqz7g=") ?? Data())
        #expect(input.count == 83)
        #expect(JournalReaderFuzzer.run(input) == [])
    }

    /// The same bug as it happens in the field: a new version of the app writes larger records
    /// (or fuller frames) than the segment it reopens was started with.
    @Test("a writer whose options grew appends in a new segment, and every record reads back")
    func writerWithGrownLimits() throws {
        let storage = InMemoryStorage()
        func options(maxRecordBytes: Int, maxRecordsPerFrame: UInt32) -> JournalOptions {
            var options = JournalOptions()
            options.storage = storage
            options.maxRecordBytes = maxRecordBytes
            options.maxRecordsPerFrame = maxRecordsPerFrame
            options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
            return options
        }
        let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        let old = try JournalWriter(directory: "/journal", options: options(maxRecordBytes: 64, maxRecordsPerFrame: 8)) { _ in [1] }
        try old.append(kind: 16, timestamp: time, payload: [UInt8](repeating: 7, count: 40))
        try old.close()

        let new = try JournalWriter(directory: "/journal", options: options(maxRecordBytes: 4096, maxRecordsPerFrame: 64)) { _ in [2] }
        for _ in 0..<20 { try new.append(kind: 17, timestamp: time, payload: [UInt8](repeating: 9, count: 1000)) }
        try new.close()

        let reader = try JournalReader(directory: "/journal", storage: storage)
        let report = reader.verify()
        #expect(reader.segments.count == 2)
        #expect(report.isClean && report.tornTail == nil)
        #expect(report.records == 2 + 1 + 20)
    }

    /// fuzz-journal, crash 2: a segment holding only its header, which claims base sequence 0.
    /// The writer's last sequence is the next one minus 1, which underflowed. Such a segment is
    /// now replaced by one numbered from 1 (sequence 0 stands for "no record").
    @Test("a header-only segment based at sequence 0 is replaced; records start at 1")
    func headerOnlySegmentBasedAtZero() throws {
        let input = [UInt8](Data(base64Encoded: "BIxQKk0YSQAAAEpSTkwBAAAA8CIAAAAAQACA//8AAAD/DwAAAAAAAAAAAAAAAAAAU3RyaW4QAAxmdXp6EwEAAACwABYcNQAOcAYBAJqMEj0utAA=") ?? Data())
        #expect(input.count == 83)
        #expect(JournalReaderFuzzer.run(input) == [])

        let storage = InMemoryStorage()
        var options = JournalOptions()
        options.storage = storage
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
        let files = try #require(JournalFuzzInput(input)?.files())
        try storage.createDirectory(at: "/journal")
        for file in files { storage.setBytes(file.bytes, of: "/journal/" + file.name) }
        let writer = try JournalWriter(directory: "/journal", options: options) { _ in [1] }
        #expect(writer.lastSequence == 0)
        #expect(try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 0), payload: [2]) == 2)
        try writer.close()
        let report = try JournalReader(directory: "/journal", storage: storage).verify()
        #expect(report.isClean && report.firstSequence == 1 && report.lastSequence == 2)
    }

    /// fuzz-journal, invariant 2: a flipped bit in a block's size, in the middle of the last
    /// segment, made the block run past the end of the file. Readers took that for a torn tail
    /// without looking further, so they dropped the frames after it without a word, while
    /// recovery, starting from the index past the bad block, appended after them.
    @Test("a block size running past the end of the last segment is corruption, not a torn tail")
    func blockSizePastTheEnd() throws {
        #expect(JournalReaderFuzzer.run(try Self.fixture("block-size-past-the-end-hides-later-frames")) == [])

        let (storage, points, path) = try Self.oneSegmentOfSixtyRecords()
        var bytes = try #require(storage.bytes(of: path))
        // The first block of the second frame: after its 28-byte sync marker and 7-byte frame header.
        let sizeField = points[1].offset + 28 + 7
        bytes[sizeField + 2] |= 0x20
        storage.setBytes(bytes, of: path)

        let report = try JournalReader(directory: "/journal", storage: storage).verify()
        #expect(report.tornTail == nil)
        #expect(report.corruption.map(\.offset) == [sizeField])
        #expect(report.lastSequence == 61)
    }

    /// fuzz-journal, invariant 3: a valid sync marker whose sequence skips ahead (the frames
    /// before it were lost). Salvage looked for the next marker strictly after it, so it lost the
    /// marker's own frame: here the record appended after recovery, numbered past the gap.
    @Test("salvage resumes at a valid sync marker whose sequence skips ahead")
    func salvageResumesAtTheGap() throws {
        #expect(JournalReaderFuzzer.run(try Self.fixture("marker-after-a-gap-is-not-resumed")) == [])

        let (storage, points, path) = try Self.oneSegmentOfSixtyRecords()
        // Cut out the second frame: the third frame's marker now follows the first frame.
        var bytes = try #require(storage.bytes(of: path))
        bytes.removeSubrange(points[1].offset..<points[2].offset)
        storage.setBytes(bytes, of: path)

        let report = try JournalReader(directory: "/journal", storage: storage).verify()
        let lost = Int(points[2].sequence - points[1].sequence)
        #expect(report.corruption.map(\.offset) == [points[1].offset])
        #expect(report.records == 61 - lost)
        #expect(report.lastSequence == 61)
    }

    /// fuzz-journal, invariant 4: an index entry (checksum and all) pointing at bytes inside the
    /// segment header that form a valid sync marker. Recovery started there, found no frame after
    /// it, and truncated the "torn tail" inside the header, destroying the segment.
    @Test("an index entry pointing inside the header is not followed")
    func indexEntryInsideTheHeader() throws {
        let input = try Self.fixture("index-entry-inside-the-header")
        #expect(JournalReaderFuzzer.run(input) == [])

        let (storage, writer) = try Self.writerRecovering(input)
        try writer.close()
        let reader = try JournalReader(directory: "/journal", storage: storage)
        #expect(reader.segments.allSatisfy { $0.header != nil })
    }

    /// fuzz-journal, invariant 5 (the one-hour run): the last segment's only frame declares a
    /// content checksum (a flipped flag bit, checksums repaired) and its first block does not
    /// decode. Recovery closed the frame with a bare end mark; readers, expecting the 4 checksum
    /// bytes after it, read the next sync marker's first bytes as them and lost everything
    /// appended afterwards. Recovery now writes the 4 bytes too.
    @Test("closing a frame that declares a content checksum writes its 4 bytes after the end mark")
    func frameWithContentChecksumIsClosedWhole() throws {
        let input = try Self.fixture("frame-with-content-checksum-closed-short")
        #expect(JournalReaderFuzzer.run(input) == [])

        let (storage, writer) = try Self.writerRecovering(input)
        #expect(writer.recovery.tornTail != nil)
        let appended = try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 1), payload: [7])
        try writer.close()
        let report = try JournalReader(directory: "/journal", storage: storage).verify()
        #expect(report.isClean, "\(report.corruption)")
        #expect(report.lastSequence == appended)
    }

    /// fuzz-journal, crash 2 (the second one-hour run, after 10,246 inputs): a damaged segment
    /// made recovery resume two below `UInt64.max`. The append was checked against the sequence
    /// space, then the new segment's snapshot took the second-last number, and numbering the
    /// record overflowed (a trap). Every record is now checked as it is numbered, and a bundle is
    /// refused whole when it does not fit.
    @Test("a snapshot that takes the last free sequence number leaves the append refused, not trapped")
    func snapshotTakesTheLastSequence() throws {
        #expect(JournalReaderFuzzer.run(try Self.fixture("snapshot-takes-the-last-sequence")) == [])

        let (_, writer) = try Self.writerRecovering(try Self.fixture("snapshot-takes-the-last-sequence"))
        #expect(throws: JournalError.self) {
            _ = try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 1), payload: [7])
            _ = try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 2), payload: [8])
        }
        #expect(throws: JournalError.self) {
            _ = try writer.appendBundle([(kind: 16, payload: [9]), (kind: 17, payload: [10])], timestamp: JournalTime(microsecondsSince1970: 3))
        }
        try? writer.close()
    }

    /// fuzz-journal, crash 3 (the third one-hour run, after 1,228,267 inputs): a damaged sync
    /// marker, checksums repaired, claimed a first sequence so near 2^64 that numbering the
    /// records of its frame overflowed in the reader (a trap in `verify`). A block whose records
    /// would be numbered past 2^64 - 2 is now damage like any other framing error.
    @Test("records that would be numbered past the last sequence are damage, not a trap")
    func recordsNumberedPastTheLastSequence() throws {
        #expect(JournalReaderFuzzer.run(try Self.fixture("records-numbered-past-the-last-sequence")) == [])
    }

    /// fuzz-journal (after about 556,000 inputs, 14 minutes into a 30-minute run): a stream whose last segment is
    /// based at 2^64 - 1, followed by the beginning of a header cut short. Naming the cut header
    /// after that segment overflowed; it is now bytes of the segment before.
    @Test("a header cut short after a segment based at the last sequence is not named past it")
    func cutHeaderAfterTheLastSequence() throws {
        #expect(JournalReaderFuzzer.run(try Self.fixture("cut-header-after-the-last-sequence")) == [])
    }

    /// fuzz-journal, invariant 6 (a 20-minute run, after about 49,000 inputs): a block, checksums
    /// repaired, holding a match at offset 0. liblz4 1.9.4 decodes it (as zeros; the block check,
    /// repaired over that output, matched), so the journal read as
    /// 8 records on Linux and as corruption through the Swift decoder (iOS). The reader now holds
    /// liblz4's blocks to the format's rules too: corruption on both paths, in the same words.
    @Test("a block with a match at offset 0 is the same corruption through liblz4 as through the Swift decoder",
          arguments: [LZ4Implementation.liblz4, .swift])
    func matchAtOffsetZero(decoding: LZ4Implementation) throws {
        let input = try Self.fixture("match-at-offset-zero")
        #expect(JournalReaderFuzzer.run(input) == [])

        let storage = InMemoryStorage()
        try storage.createDirectory(at: "/journal")
        for file in try #require(JournalFuzzInput(input)?.files()) { storage.setBytes(file.bytes, of: "/journal/" + file.name) }
        var reader = try JournalReader(directory: "/journal", storage: storage)
        reader.lz4Implementation = decoding
        let expected = Damage(kind: .corruption, segment: "segment-00000000000000000001.lz4", offset: 116, sequence: 1,
                              reason: "block does not decode as LZ4 (at block byte 33: match offset 0)")
        #expect(throws: JournalError.corrupted(expected)) {
            let cursor = try reader.records(mode: .strict)
            while try cursor.next() != nil {}
        }
        let report = reader.verify()
        #expect(report.corruption.first == expected)
        #expect(report.records == 0, "no record is made of the block's bytes")
    }
}
