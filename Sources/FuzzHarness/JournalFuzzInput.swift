import Journal

/// How the journal fuzzer turns one input into the files of a journal directory.
///
/// ```
/// input := mode seek content
/// mode  := bits 0-1 the shape, bit 2 repair checksums, bits 3-7 the split fraction
/// ```
///
/// - ``Shape/oneSegment``: `content` is one segment file.
/// - ``Shape/twoSegmentsAtHeader``: two segments, split where a second segment header begins
///   (the seeds concatenate two segments of one journal); in the middle when there is none.
/// - ``Shape/twoSegmentsAtFraction``: two segments, split at `fraction/31` of `content`.
/// - ``Shape/segmentAndIndex``: one segment and its index file, split at the last `JIDX`.
///
/// Each segment is named after the base sequence its header claims (bytes 32..<40 of the file),
/// so names agree with headers unless two segments claim the same base (the second is then named
/// one past it). With the repair bit, every checksum the harness can recompute is recomputed
/// (``SegmentChecksumRepair``): mutations then reach the record framing and the cursors' logic
/// instead of stopping at the first checksum.
/// `seek` picks the record the harness seeks to.
package struct JournalFuzzInput: Sendable {
    package enum Shape: UInt8, Sendable, CaseIterable {
        case oneSegment = 0
        case twoSegmentsAtHeader = 1
        case twoSegmentsAtFraction = 2
        case segmentAndIndex = 3
    }

    /// A file of the journal directory.
    package struct File: Sendable, Equatable {
        package var name: String
        package var bytes: [UInt8]
    }

    package var shape: Shape
    package var repairsChecksums: Bool
    /// 0...31: where ``Shape/twoSegmentsAtFraction`` splits, in 31sts of the content.
    package var splitFraction: UInt8
    /// Which record the harness seeks to.
    package var seekSelector: UInt8
    package var content: [UInt8]

    package init(shape: Shape, repairsChecksums: Bool = false, splitFraction: UInt8 = 0, seekSelector: UInt8 = 0, content: [UInt8]) {
        self.shape = shape
        self.repairsChecksums = repairsChecksums
        self.splitFraction = splitFraction & 31
        self.seekSelector = seekSelector
        self.content = content
    }

    /// Parses an input; nil when it is too short to hold the two leading bytes.
    package init?(_ input: [UInt8]) {
        guard input.count >= 2 else { return nil }
        let mode = input[0]
        self.init(shape: Shape(rawValue: mode & 3) ?? .oneSegment, repairsChecksums: mode & 4 != 0,
                  splitFraction: mode >> 3, seekSelector: input[1], content: Array(input[2...]))
    }

    /// The input bytes that parse back to this value (for writing seeds).
    package var encoded: [UInt8] {
        [shape.rawValue | (repairsChecksums ? 4 : 0) | (splitFraction << 3), seekSelector] + content
    }

    /// The files of the journal directory this input describes.
    package func files() -> [File] {
        var files: [File]
        switch shape {
        case .oneSegment:
            files = [segment(content, fallbackBase: 1)]
        case .twoSegmentsAtHeader:
            let split = Self.firstOccurrence(of: Self.headerMagic, in: content, after: 0) ?? content.count / 2
            files = twoSegments(split: split)
        case .twoSegmentsAtFraction:
            files = twoSegments(split: content.count * Int(splitFraction) / 31)
        case .segmentAndIndex:
            let split = Self.lastOccurrence(of: Array("JIDX".utf8), in: content) ?? content.count
            let first = segment(Array(content[..<split]), fallbackBase: 1)
            let base = SegmentFormat.baseSequence(ofSegmentFileName: first.name) ?? 1
            files = [first, File(name: SegmentFormat.indexFileName(baseSequence: base), bytes: Array(content[split...]))]
        }
        if repairsChecksums {
            for index in files.indices {
                if files[index].name.hasSuffix(".idx") {
                    SegmentChecksumRepair.repairIndex(&files[index].bytes)
                } else {
                    SegmentChecksumRepair.repairSegment(&files[index].bytes)
                }
            }
        }
        return files
    }

    private func twoSegments(split: Int) -> [File] {
        let first = segment(Array(content[..<split]), fallbackBase: 1)
        let firstBase = SegmentFormat.baseSequence(ofSegmentFileName: first.name) ?? 1
        var second = segment(Array(content[split...]), fallbackBase: firstBase &+ 1)
        if second.name == first.name {
            second.name = SegmentFormat.segmentFileName(baseSequence: firstBase &+ 1)
        }
        return [first, second]
    }

    /// A segment file named after the base sequence its header claims.
    private func segment(_ bytes: [UInt8], fallbackBase: UInt64) -> File {
        var base = fallbackBase
        if bytes.count >= 40 {
            base = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[32 + $1]) << UInt64(8 * $1) }
        }
        return File(name: SegmentFormat.segmentFileName(baseSequence: base), bytes: bytes)
    }

    /// The segment header's magic, little-endian, as it begins every segment file.
    private static let headerMagic: [UInt8] = [0x50, 0x2A, 0x4D, 0x18]

    private static func firstOccurrence(of needle: [UInt8], in haystack: [UInt8], after start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start + 1
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func lastOccurrence(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.count - needle.count
        while index >= 0 {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }
}
