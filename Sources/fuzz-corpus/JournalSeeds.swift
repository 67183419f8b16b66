import Foundation
import FuzzHarness
import Journal

/// Seeds of the journal target: real segments written by ``JournalWriter`` (the fixture story,
/// raw journals whose blocks are stored or compressed), in every shape ``JournalFuzzInput``
/// knows, plus the damage a crash leaves (a torn tail, an open frame, a header alone), and every
/// input that once broke the target (the regression tests' fixtures, named `find-…`).
enum JournalSeeds {
    typealias Seed = (name: String, bytes: [UInt8])

    /// `finds`: the directory of inputs that broke the target (`Tests/JournalTests/Fixtures/fuzz-journal`).
    static func make(finds: String) throws -> [Seed] {
        var seeds: [Seed] = []
        let story = try journalFiles { try FixtureJournal.writeStory(to: $0, storage: $1) }
        let segments = story.filter { $0.name.hasSuffix(".lz4") }.map(\.bytes)
        let indexes = story.filter { $0.name.hasSuffix(".idx") }.map(\.bytes)
        guard segments.count >= 3, indexes.count >= 2 else {
            throw CorpusError("the fixture story wrote \(segments.count) segments, 3 needed")
        }
        func add(_ name: String, _ input: JournalFuzzInput) { seeds.append((name, input.encoded)) }
        add("story-first-segment", JournalFuzzInput(shape: .oneSegment, seekSelector: 100, content: segments[0]))
        add("story-last-segment", JournalFuzzInput(shape: .oneSegment, seekSelector: 200, content: segments[segments.count - 1]))
        add("story-first-segment-repaired", JournalFuzzInput(shape: .oneSegment, repairsChecksums: true, seekSelector: 30, content: segments[0]))
        add("story-two-segments", JournalFuzzInput(shape: .twoSegmentsAtHeader, seekSelector: 160, content: segments[0] + segments[1]))
        add("story-two-later-segments-repaired",
            JournalFuzzInput(shape: .twoSegmentsAtHeader, repairsChecksums: true, seekSelector: 90, content: segments[1] + segments[2]))
        add("story-two-segments-split-by-fraction",
            JournalFuzzInput(shape: .twoSegmentsAtFraction, splitFraction: fraction(segments[0].count, of: segments[0].count + segments[1].count),
                             seekSelector: 10, content: segments[0] + segments[1]))
        add("story-segment-and-index", JournalFuzzInput(shape: .segmentAndIndex, seekSelector: 250, content: segments[1] + indexes[1]))
        add("story-segment-and-index-repaired",
            JournalFuzzInput(shape: .segmentAndIndex, repairsChecksums: true, seekSelector: 128, content: segments[0] + indexes[0]))

        // Incompressible payloads: LZ4 stores the blocks as they are.
        var random = SeedRandom(seed: 0x5EED)
        let stored = try journalFiles { directory, storage in
            try FixtureJournal.writeRaw(to: directory, storage: storage, payloads: (0..<24).map { _ in random.bytes(count: random.int(8...90)) },
                                        segmentBytes: 1024)
        }.filter { $0.name.hasSuffix(".lz4") }.map(\.bytes)
        add("stored-blocks-segment-repaired", JournalFuzzInput(shape: .oneSegment, repairsChecksums: true, seekSelector: 64, content: stored[0]))
        add("stored-blocks-two-segments", JournalFuzzInput(shape: .twoSegmentsAtHeader, seekSelector: 192, content: stored[0] + stored[1]))

        // Compressible payloads: linked compressed blocks that copy from earlier ones.
        let compressed = try journalFiles { directory, storage in
            try FixtureJournal.writeRaw(to: directory, storage: storage,
                                        payloads: (0..<60).map { Array("event \($0 % 5) \(String(repeating: "abcd", count: $0 % 13))".utf8) },
                                        kinds: 2, segmentBytes: 4096)
        }.filter { $0.name.hasSuffix(".lz4") }.map(\.bytes)
        add("compressed-blocks-segment-repaired",
            JournalFuzzInput(shape: .oneSegment, repairsChecksums: true, seekSelector: 140, content: compressed[0]))

        // The same as independent blocks, as Apple platforms write them.
        let independent = try journalFiles { directory, storage in
            try FixtureJournal.writeRaw(to: directory, storage: storage,
                                        payloads: (0..<60).map { Array("event \($0 % 5) \(String(repeating: "abcd", count: $0 % 13))".utf8) },
                                        kinds: 2, segmentBytes: 4096, blockMode: .independent)
        }.filter { $0.name.hasSuffix(".lz4") }.map(\.bytes)
        add("independent-blocks-segment-repaired",
            JournalFuzzInput(shape: .oneSegment, repairsChecksums: true, seekSelector: 140, content: independent[0]))
        // Not a journal: one LZ4 block that copies from its dictionary (``LZ4BlockCrossCheck``).
        seeds.append(("lz4-block-with-dictionary", LZ4BlockCrossCheck.seed()))

        // What a crash leaves.
        let last = segments[segments.count - 1]
        add("story-torn-tail", JournalFuzzInput(shape: .oneSegment, seekSelector: 50, content: Array(last[..<(last.count * 2 / 3)])))
        add("header-only", JournalFuzzInput(shape: .oneSegment, content: Array(last[..<headerLength(of: last)])))
        add("open-frame", JournalFuzzInput(shape: .oneSegment, seekSelector: 70, content: try openFrameSegment()))

        // What broke the target once: damage of shapes no seed above has.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: finds))?.sorted() ?? []
        guard !names.isEmpty else { throw CorpusError("no fuzz-journal finds in \(finds)") }
        for name in names {
            guard let bytes = FileManager.default.contents(atPath: finds + "/" + name) else { throw CorpusError("cannot read \(finds)/\(name)") }
            seeds.append(("find-" + name, [UInt8](bytes)))
        }
        return seeds
    }

    /// Tokens worth trying anywhere in a segment: the magics, the identifiers, a block check.
    static func dictionary() -> [[UInt8]] {
        let words: [UInt32] = [SegmentFormat.headerMagic, SegmentFormat.syncMarkerMagic, SegmentFormat.lz4FrameMagic, 0x184D_2A5F]
        return words.map { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(8 * $0)) } }
            + [Array("JRNL".utf8), Array("JIDX".utf8), [0x06, 0x01, 0x00], [0x50, 0x70], [0x70, 0x70], [0x01, 0x00, 0x00, 0x00], [0x14, 0x00, 0x00, 0x00],
               [0x00, 0x00, 0x00, 0x00], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]
    }

    /// The files a writer left in a fresh in-memory directory, by name.
    private static func journalFiles(_ write: (String, InMemoryStorage) throws -> Void) throws -> [(name: String, bytes: [UInt8])] {
        let storage = InMemoryStorage()
        let directory = "/journal"
        try write(directory, storage)
        return storage.fileNames(in: directory).map { ($0, storage.bytes(of: directory + "/" + $0) ?? []) }
    }

    /// A segment whose last frame has no end mark: a live writer's, read before it closed.
    private static func openFrameSegment() throws -> [UInt8] {
        let storage = InMemoryStorage()
        let writer = try JournalWriter(directory: "/journal", options: FixtureJournal.options(storage: storage), snapshot: nil)
        try writer.rotateIfNeeded(time: FixtureStory.startTime) { _ in Array("open".utf8) }
        for index in 0..<20 {
            try writer.append(kind: 16, timestamp: FixtureStory.startTime, payload: Array("live record \(index)".utf8))
        }
        try writer.sync()
        let name = storage.fileNames(in: "/journal").first { $0.hasSuffix(".lz4") } ?? ""
        let bytes = storage.bytes(of: "/journal/" + name) ?? []
        try writer.close()
        return bytes
    }

    /// The length of the segment header frame at the start of `segment`.
    private static func headerLength(of segment: [UInt8]) -> Int {
        guard segment.count >= 8 else { return segment.count }
        let size = (4..<8).reduce(0) { $0 | Int(segment[$1]) << (8 * ($1 - 4)) }
        return min(segment.count, 8 + size)
    }

    /// The split fraction (in 31sts) nearest to `part / whole`.
    private static func fraction(_ part: Int, of whole: Int) -> UInt8 {
        UInt8((part * 31 + whole / 2) / max(whole, 1))
    }
}
