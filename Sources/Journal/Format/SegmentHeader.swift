import Foundation

/// The first frame of every segment: which journal it belongs to, where its sequence numbers and
/// times start, and who wrote it. Stored in an LZ4 skippable frame, so `lz4 -dc` ignores it.
public struct SegmentHeader: Sendable, Equatable {
    public var version: FormatVersion
    /// Identifies the journal; every segment of one journal carries the same id.
    public var journalID: UUID
    /// The sequence number of the segment's first record.
    public var baseSequence: UInt64
    /// The timestamp of the segment's first record.
    public var baseTime: JournalTime
    /// The writer's monotonic clock, in nanoseconds, when it created the segment (diagnostic).
    public var createdMonotonicNanoseconds: UInt64
    /// The writer never puts more records than this in one LZ4 frame.
    public var maxRecordsPerFrame: UInt32
    /// The writer never writes a record (header fields plus payload) longer than this.
    public var maxRecordBytes: UInt32
    /// The producing software and platform, e.g. `engagement-sdk/0.1.0 linux-x86_64`.
    public var producer: String
    /// Set when the segment does not follow on from the previous one (format 1.4): the sequence
    /// number the previous segment's records end before. The numbers from it up to
    /// ``baseSequence`` minus one were given out by a writer that failed before it wrote them;
    /// no segment holds them, and readers step over them (docs/FORMAT.md, "Sequence numbers a
    /// failed writer gave out"). Always below ``baseSequence`` when set.
    public var continuesFrom: UInt64?

    /// A header; `version` defaults to what the writer labels it
    /// (``SegmentFormat/version(continuesFrom:maxRecordBytes:)``).
    public init(
        version: FormatVersion? = nil,
        journalID: UUID,
        baseSequence: UInt64,
        baseTime: JournalTime,
        createdMonotonicNanoseconds: UInt64,
        maxRecordsPerFrame: UInt32,
        maxRecordBytes: UInt32,
        producer: String,
        continuesFrom: UInt64? = nil
    ) {
        self.version = version ?? SegmentFormat.version(continuesFrom: continuesFrom, maxRecordBytes: Int(maxRecordBytes))
        self.continuesFrom = continuesFrom
        self.journalID = journalID
        self.baseSequence = baseSequence
        self.baseTime = baseTime
        self.createdMonotonicNanoseconds = createdMonotonicNanoseconds
        self.maxRecordsPerFrame = maxRecordsPerFrame
        self.maxRecordBytes = maxRecordBytes
        self.producer = producer
    }
}

extension SegmentHeader {
    /// Why a header could not be read.
    enum DecodingError: Error, Equatable {
        case truncated
        case notAHeader
        case badChecksum
        case malformed(String)
        case newerMajorVersion(FormatVersion)
    }

    /// The complete skippable frame: magic, content size, content (ending in its XXH32).
    func encoded() -> [UInt8] {
        var content = ByteWriter(capacity: 96)
        content.writeBytes(SegmentFormat.headerIdentifier)
        content.writeUInt16(version.major)
        content.writeUInt16(version.minor)
        let id = journalID.uuid
        content.writeBytes([id.0, id.1, id.2, id.3, id.4, id.5, id.6, id.7,
                            id.8, id.9, id.10, id.11, id.12, id.13, id.14, id.15])
        content.writeUInt64(baseSequence)
        content.writeInt64(baseTime.microsecondsSince1970)
        content.writeUInt64(createdMonotonicNanoseconds)
        content.writeUInt32(maxRecordsPerFrame)
        content.writeUInt32(maxRecordBytes)
        let producerBytes = Array(producer.utf8.prefix(255))
        content.writeByte(UInt8(producerBytes.count))
        content.writeBytes(producerBytes)
        if let continuesFrom { content.writeUInt64(continuesFrom) }
        content.writeUInt32(XXHash32.hash(content.bytes))

        var frame = ByteWriter(capacity: content.count + 8)
        frame.writeUInt32(SegmentFormat.headerMagic)
        frame.writeUInt32(UInt32(content.count))
        frame.writeBytes(content.bytes)
        return frame.bytes
    }

    /// Decodes the header frame at the start of `bytes`; returns it and its encoded length.
    static func decode(from bytes: UnsafeRawBufferPointer) throws(DecodingError) -> (SegmentHeader, Int) {
        guard bytes.count >= 8 else { throw .truncated }
        guard bytes.loadUnaligned(as: UInt32.self).littleEndian == SegmentFormat.headerMagic else {
            throw .notAHeader
        }
        let contentSize = Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
        // Fixed fields (56 bytes) + producer length byte + checksum.
        guard contentSize >= 61, contentSize <= SegmentFormat.maxHeaderBytes else {
            throw .malformed("header size \(contentSize) is outside 61...\(SegmentFormat.maxHeaderBytes)")
        }
        guard bytes.count >= 8 + contentSize else { throw .truncated }
        let content = UnsafeRawBufferPointer(rebasing: bytes[8..<(8 + contentSize)])
        let storedChecksum = content.loadUnaligned(fromByteOffset: contentSize - 4, as: UInt32.self).littleEndian
        guard XXHash32.hash(UnsafeRawBufferPointer(rebasing: content[0..<(contentSize - 4)])) == storedChecksum else {
            throw .badChecksum
        }
        guard Array(content[0..<4]) == SegmentFormat.headerIdentifier else { throw .notAHeader }

        var reader = ByteReader(Array(content[4..<(contentSize - 4)]))
        do {
            let version = FormatVersion(major: try reader.readUInt16(), minor: try reader.readUInt16())
            guard version.major <= SegmentFormat.currentVersion.major else { throw DecodingError.newerMajorVersion(version) }
            let idBytes = Array(try reader.readBytes(16))
            let journalID = UUID(uuid: (idBytes[0], idBytes[1], idBytes[2], idBytes[3], idBytes[4], idBytes[5],
                                        idBytes[6], idBytes[7], idBytes[8], idBytes[9], idBytes[10], idBytes[11],
                                        idBytes[12], idBytes[13], idBytes[14], idBytes[15]))
            let baseSequence = try reader.readUInt64()
            let baseTime = JournalTime(microsecondsSince1970: try reader.readInt64())
            let monotonic = try reader.readUInt64()
            let maxRecordsPerFrame = try reader.readUInt32()
            let maxRecordBytes = try reader.readUInt32()
            let producerLength = Int(try reader.readByte())
            let producerBytes = try reader.readBytes(producerLength)
            guard let producer = UTF8Validation.string(producerBytes) else {
                throw DecodingError.malformed("producer is not UTF-8")
            }
            guard maxRecordsPerFrame > 0 else { throw DecodingError.malformed("maxRecordsPerFrame is 0") }
            // From 1.4 on, a header whose extension holds at least 8 bytes begins it with the
            // sequence the segment continues from; anything after it, and every extension byte
            // of 1.0 to 1.3, belongs to newer minor versions: skipped.
            var continuesFrom: UInt64?
            if version >= SegmentFormat.skipDeclaringVersion, reader.remaining >= 8 {
                let declared = try reader.readUInt64()
                guard declared < baseSequence else {
                    throw DecodingError.malformed("the segment continues from sequence \(declared), not below its base \(baseSequence)")
                }
                continuesFrom = declared
            }
            let header = SegmentHeader(
                version: version, journalID: journalID, baseSequence: baseSequence, baseTime: baseTime,
                createdMonotonicNanoseconds: monotonic, maxRecordsPerFrame: maxRecordsPerFrame,
                maxRecordBytes: maxRecordBytes, producer: producer, continuesFrom: continuesFrom)
            return (header, 8 + contentSize)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
    }
}
