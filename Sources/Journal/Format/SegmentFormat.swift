/// The constants of the on-disk format described in `docs/FORMAT.md`.
///
/// A segment is a sequence of LZ4 frames: one skippable frame holding the ``SegmentHeader``,
/// then, repeatedly, a skippable frame holding a sync marker followed by a standard LZ4 frame
/// of records (linked or independent blocks, block checksums, one block per commit group).
public enum SegmentFormat {
    /// The newest format version this build reads and writes. Readers refuse a newer major version.
    ///
    /// 1.1 to 1.3: the container's bytes are those of 1.0; the minor version marks what its
    /// producer (the SDK) changed in the records. 1.4: a segment may declare that it continues
    /// past sequence numbers a failed writer gave out, and its records may be larger than 1.3
    /// allowed (``maxRecordBytesLimit``) (docs/FORMAT.md, "Version history").
    public static let currentVersion = FormatVersion(major: 1, minor: 4)
    /// The version of a segment that follows on from the previous one and whose records stay
    /// within 1.3's limit: its bytes are exactly those of 1.3, so it says 1.3 and every 1.3
    /// reader reads it as its writer meant.
    public static let continuousSegmentVersion = FormatVersion(major: 1, minor: 3)
    /// The first version whose header may say where the segment continues from
    /// (``SegmentHeader/continuesFrom``), and whose records may exceed ``recordBytesLimitBefore14``.
    public static let skipDeclaringVersion = FormatVersion(major: 1, minor: 4)
    /// The largest record a reader before 1.4 accepts.
    public static let recordBytesLimitBefore14 = 2 * 1024 * 1024

    /// The version a writer labels a segment with: the oldest whose readers read it as meant.
    public static func version(continuesFrom: UInt64?, maxRecordBytes: Int) -> FormatVersion {
        continuesFrom == nil && maxRecordBytes <= recordBytesLimitBefore14 ? continuousSegmentVersion : skipDeclaringVersion
    }

    /// Skippable-frame magic of the segment header.
    public static let headerMagic: UInt32 = 0x184D_2A50
    /// Skippable-frame magic of a sync marker.
    public static let syncMarkerMagic: UInt32 = 0x184D_2A51
    /// Magic of a standard LZ4 frame.
    public static let lz4FrameMagic: UInt32 = 0x184D_2204
    /// The first four bytes inside the header frame: "JRNL".
    public static let headerIdentifier: [UInt8] = Array("JRNL".utf8)

    /// The record kind reserved for snapshots.
    public static let snapshotKind: UInt32 = 0
    /// The kind of the check record that ends every block's content: its payload is the XXH32
    /// of the block's decompressed bytes before it. It is framing, not a record: it has no
    /// sequence number and readers never return it.
    static let blockCheckKind: UInt32 = 1
    /// Kinds below this are reserved for the journal; applications use this and above.
    public static let firstApplicationKind: UInt32 = 16
    /// The encoded length of a block check record: length, kind, zero time delta, 4-byte digest.
    static let blockCheckBytes = 7

    /// The largest block the writer emits and the reader accepts (the LZ4 frame's 4 MiB block size).
    public static let maxBlockBytes = 4 * 1024 * 1024
    /// The largest record (header fields plus payload) any writer may configure: what one block
    /// holds, less a window's worth of room (a record never spans two blocks). An application
    /// that keeps its records small but its snapshots large (the SDK's, with a full offline
    /// queue) needs the room for the snapshot. Journals before 1.4 were written with 2 MiB.
    public static let maxRecordBytesLimit = maxBlockBytes - windowBytes
    /// The largest segment header the reader accepts.
    public static let maxHeaderBytes = 4096
    /// The LZ4 window: linked blocks may refer this far back into the frame's earlier content.
    public static let windowBytes = 64 * 1024

    /// The frame descriptor's FLG byte the writer uses for linked blocks: version 01, block
    /// checksums. Independent blocks add ``independentBlocksFlag`` (``LZ4BlockMode``).
    static let writerFrameFlags: UInt8 = 0x50
    /// The FLG bit that says a frame's blocks are independent: none refers to an earlier one.
    static let independentBlocksFlag: UInt8 = 0x20
    /// The frame descriptor's BD byte the writer uses: 4 MiB maximum block size.
    static let writerBlockDescriptor: UInt8 = 0x70
    /// The bit of a block's size word that says the block holds its bytes uncompressed.
    static let uncompressedBlockFlag: UInt32 = 0x8000_0000
    /// The end mark that closes an LZ4 frame: a zero block size.
    static let endMark: [UInt8] = [0, 0, 0, 0]
    /// Size in bytes of an encoded sync marker.
    static let syncMarkerBytes = 28

    /// The file name of the segment whose first record has `baseSequence`.
    public static func segmentFileName(baseSequence: UInt64) -> String {
        "segment-\(zeroPadded(baseSequence)).lz4"
    }

    /// The file name of the sparse index of the segment with `baseSequence`.
    public static func indexFileName(baseSequence: UInt64) -> String {
        "segment-\(zeroPadded(baseSequence)).idx"
    }

    /// The base sequence named by a segment file name, or nil for any other file.
    public static func baseSequence(ofSegmentFileName name: String) -> UInt64? {
        guard name.hasPrefix("segment-"), name.hasSuffix(".lz4") else { return nil }
        let digits = name.dropFirst("segment-".count).dropLast(".lz4".count)
        guard digits.count == 20, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return UInt64(digits)
    }

    private static func zeroPadded(_ value: UInt64) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 20 - text.count)) + text
    }
}

/// A format version: readers accept any minor version of a major they know.
public struct FormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: UInt16
    public var minor: UInt16

    public init(major: UInt16, minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    public static func < (lhs: FormatVersion, rhs: FormatVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    public var description: String { "\(major).\(minor)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
