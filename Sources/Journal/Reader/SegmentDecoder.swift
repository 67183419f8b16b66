/// Walks one segment's bytes: header, sync markers, LZ4 frames, blocks, records.
///
/// Every block is verified (XXH32 of its stored bytes) before it is decoded, and every record of
/// a block is checked for framing before the first one is returned, so bytes that fail a check
/// are never handed out as data. On a failed check the decoder stops with a ``Damage`` whose
/// kind (torn tail or corruption) it decides by looking for readable data further on.
struct SegmentDecoder {
    /// What the decoder found next.
    enum Step {
        /// A record; its payload points into the decode window and is valid until the next step.
        case record(RecordView)
        /// A sync marker at this byte offset: a frame of records starts here.
        case syncPoint(offset: Int, firstSequence: UInt64, firstTime: JournalTime)
        /// The segment ended at a frame boundary (`openFrame` false) or after a complete block of
        /// a frame that was never closed (`openFrame` true: the live segment, or a crash).
        case end(openFrame: Bool)
        /// The segment stops being readable here.
        case damage(Damage)
    }

    let name: String
    let header: SegmentHeader
    /// The byte offset just past the header frame.
    let headerLength: Int
    /// Whether this is the journal's last segment, where damage may be a torn tail.
    let isLastSegment: Bool

    private let contents: any FileContents
    private let bytes: UnsafeRawBufferPointer
    private let window: DecodeWindow
    private let maxRecordBytes: Int

    /// The offset of the next byte structure to read.
    private(set) var offset: Int
    /// The end of the last complete, valid structure: where recovery truncates a torn tail.
    private(set) var validEnd: Int
    /// Whether ``validEnd`` lies inside a frame that has no end mark yet.
    private(set) var validEndIsInsideFrame = false {
        didSet { if !validEndIsInsideFrame { validEndFrameHasContentChecksum = false } }
    }
    /// Whether that frame declares a content checksum (4 bytes after its end mark). This
    /// format's writer never declares one, but readers accept frames that do.
    private(set) var validEndFrameHasContentChecksum = false
    /// The sequence number the next record will have.
    private(set) var nextSequence: UInt64
    /// Decompressed bytes of the blocks decoded so far (the raw record stream).
    private(set) var decodedBytes = 0
    /// The offset and first sequence of the sync marker of the frame being read.
    private(set) var currentSyncPoint: (offset: Int, sequence: UInt64)?
    private var frame: FrameState?
    private var expectingFrameAfterMarker = false
    private var time: JournalTime
    private var pendingRecords = PendingRecords()
    private var discardedUpTo = 0
    /// The damage this decoder stopped at, if any; it stays there until resynchronized.
    private(set) var damageFound: Damage?

    /// The decoder's position inside an LZ4 frame.
    private struct FrameState {
        var linked: Bool
        var maxBlockBytes: Int
        var hasContentChecksum: Bool
        var records: UInt32 = 0
    }

    /// The verified records of the last decoded block, returned one at a time.
    private struct PendingRecords {
        var cursor = 0
        var end = 0
        var blockOffset = 0
    }

    /// Opens a segment; throws when its header is missing, invalid, or from a newer major version.
    init(name: String, contents: any FileContents, isLastSegment: Bool, window: DecodeWindow) throws(SegmentOpenError) {
        let decoded: (SegmentHeader, Int)
        do {
            decoded = try SegmentHeader.decode(from: contents.bytes)
        } catch {
            switch error {
            case .newerMajorVersion(let version):
                throw .newerVersion(version)
            case .truncated:
                throw .invalidHeader("the header is cut short (file is \(contents.bytes.count) bytes)", truncated: true)
            case .notAHeader:
                throw .invalidHeader("the file does not start with a journal segment header", truncated: false)
            case .badChecksum:
                throw .invalidHeader("the header checksum does not match", truncated: false)
            case .malformed(let reason):
                throw .invalidHeader(reason, truncated: false)
            }
        }
        self.name = name
        self.header = decoded.0
        self.headerLength = decoded.1
        self.isLastSegment = isLastSegment
        self.contents = contents
        self.bytes = contents.bytes
        self.window = window
        self.maxRecordBytes = min(Int(decoded.0.maxRecordBytes), SegmentFormat.maxRecordBytesLimit)
        self.offset = decoded.1
        self.validEnd = decoded.1
        self.nextSequence = decoded.0.baseSequence
        self.time = decoded.0.baseTime
    }

    /// Why a segment could not be opened at all.
    enum SegmentOpenError: Error {
        case invalidHeader(String, truncated: Bool)
        case newerVersion(FormatVersion)
    }

    /// The segment file's length in bytes.
    var fileLength: Int { bytes.count }

    /// Positions the decoder at the sync marker at `markerOffset` (from an index); returns false,
    /// leaving the decoder where it was, when no valid marker is there. Markers sit after the
    /// header: bytes inside it that happen to look like one are not a place to read (or, for
    /// recovery, to truncate) from.
    mutating func reposition(toSyncMarkerAt markerOffset: Int) -> Bool {
        guard markerOffset >= headerLength, frame == nil, pendingRecords.cursor == pendingRecords.end,
              let marker = SyncMarker.decode(from: bytes, at: markerOffset)
        else { return false }
        offset = markerOffset
        validEnd = markerOffset
        nextSequence = marker.firstSequence
        return true
    }

    /// Reads the next step. After `.end` or `.damage` it keeps returning the same kind of result.
    mutating func next() -> Step {
        if let damageFound { return .damage(damageFound) }
        if pendingRecords.cursor < pendingRecords.end {
            return .record(takeRecord())
        }
        if let frame {
            return nextInFrame(frame)
        }
        if expectingFrameAfterMarker {
            return openFrame()
        }
        return nextBetweenFrames()
    }

    // MARK: - Between frames

    private mutating func nextBetweenFrames() -> Step {
        let remaining = bytes.count - offset
        if remaining == 0 { return .end(openFrame: false) }
        guard remaining >= 8 else { return damage(at: offset, "a frame is cut short") }
        let magic = load32(offset)
        if magic == SegmentFormat.syncMarkerMagic {
            guard remaining >= SegmentFormat.syncMarkerBytes else {
                return damage(at: offset, "a sync marker is cut short")
            }
            guard let marker = SyncMarker.decode(from: bytes, at: offset) else {
                return damage(at: offset, "invalid sync marker (checksum or size)")
            }
            if marker.firstSequence != nextSequence {
                return damage(at: offset, "sync marker names sequence \(marker.firstSequence) but \(nextSequence) was expected")
            }
            let markerOffset = offset
            // validEnd stays before the marker until the frame header after it is complete, so
            // truncating at validEnd never leaves a marker without its frame.
            nextSequence = marker.firstSequence
            time = marker.firstTime
            currentSyncPoint = (markerOffset, marker.firstSequence)
            offset += SegmentFormat.syncMarkerBytes
            expectingFrameAfterMarker = true
            releasePages()
            return .syncPoint(offset: markerOffset, firstSequence: marker.firstSequence, firstTime: marker.firstTime)
        }
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 && magic != SegmentFormat.headerMagic {
            // A skippable frame of a newer minor version: skipped, with its size bounded.
            let size = Int(load32(offset + 4))
            guard size <= 1 << 20 else { return damage(at: offset, "skippable frame of \(size) bytes is implausible") }
            guard remaining >= 8 + size else { return damage(at: offset, "a skippable frame is cut short") }
            offset += 8 + size
            validEnd = offset
            validEndIsInsideFrame = false
            return nextBetweenFrames()
        }
        if magic == SegmentFormat.lz4FrameMagic {
            return damage(at: offset, "an LZ4 frame without its sync marker")
        }
        return damage(at: offset, "unexpected bytes between frames (0x\(String(magic, radix: 16)))")
    }

    private mutating func openFrame() -> Step {
        let remaining = bytes.count - offset
        guard remaining >= 7 else { return damage(at: offset, "an LZ4 frame header is cut short") }
        guard load32(offset) == SegmentFormat.lz4FrameMagic else {
            return damage(at: offset, "a sync marker is not followed by an LZ4 frame")
        }
        let flags = bytes[offset + 4]
        let descriptor = bytes[offset + 5]
        guard flags >> 6 == 0b01 else { return damage(at: offset, "LZ4 frame version \(flags >> 6) is not 1") }
        guard flags & 0b10 == 0, descriptor & 0x8F == 0 else { return damage(at: offset, "LZ4 frame reserved bits are set") }
        guard flags & 0x10 != 0 else { return damage(at: offset, "LZ4 frame without block checksums (unverifiable)") }
        guard flags & 0x01 == 0 else { return damage(at: offset, "LZ4 frame needs a dictionary (unsupported)") }
        let blockSizeID = Int(descriptor >> 4)
        guard (4...7).contains(blockSizeID) else { return damage(at: offset, "LZ4 block size id \(blockSizeID) is invalid") }
        let headerLength = 7 + (flags & 0x08 != 0 ? 8 : 0)
        guard remaining >= headerLength else { return damage(at: offset, "an LZ4 frame header is cut short") }
        let descriptorBytes = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + headerLength - 1)])
        let expectedChecksum = UInt8(truncatingIfNeeded: XXHash32.hash(descriptorBytes) >> 8)
        guard bytes[offset + headerLength - 1] == expectedChecksum else {
            return damage(at: offset, "LZ4 frame header checksum does not match")
        }
        frame = FrameState(
            linked: flags & SegmentFormat.independentBlocksFlag == 0,
            maxBlockBytes: 1 << (8 + 2 * blockSizeID),
            hasContentChecksum: flags & 0x04 != 0)
        expectingFrameAfterMarker = false
        offset += headerLength
        validEnd = offset
        validEndIsInsideFrame = true
        validEndFrameHasContentChecksum = flags & 0x04 != 0
        window.beginFrame()
        return next()
    }

    // MARK: - Inside a frame

    private mutating func nextInFrame(_ state: FrameState) -> Step {
        let remaining = bytes.count - offset
        if remaining == 0 { return .end(openFrame: true) }
        guard remaining >= 4 else { return damage(at: offset, "a block header is cut short") }
        let word = load32(offset)
        if word == 0 {
            let trailer = state.hasContentChecksum ? 8 : 4
            guard remaining >= trailer else { return damage(at: offset, "a frame end is cut short") }
            offset += trailer
            validEnd = offset
            validEndIsInsideFrame = false
            frame = nil
            return next()
        }
        let size = Int(word & ~SegmentFormat.uncompressedBlockFlag)
        let compressed = word & SegmentFormat.uncompressedBlockFlag == 0
        guard size <= state.maxBlockBytes else {
            return damage(at: offset, "block size \(size) exceeds the frame's maximum \(state.maxBlockBytes)")
        }
        guard remaining >= 8 + size else { return damage(at: offset, "a block is cut short") }
        let stored = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 4 + size)])
        guard XXHash32.hash(stored) == load32(offset + 4 + size) else {
            return damage(at: offset, "block checksum does not match")
        }
        let content: Range<Int>
        do {
            content = try window.decode(block: stored, compressed: compressed, linked: state.linked, maxOutput: state.maxBlockBytes)
        } catch {
            return damage(at: offset, "block does not decode as LZ4 (\(error))")
        }
        decodedBytes += content.count
        switch validateRecords(in: content, frameRecords: state.records, frameLimit: header.maxRecordsPerFrame) {
        case .failure(let error):
            return damage(at: offset, error.reason)
        case .success(let count):
            frame?.records += count
        }
        pendingRecords = PendingRecords(
            cursor: content.lowerBound, end: content.upperBound - SegmentFormat.blockCheckBytes, blockOffset: offset)
        offset += 8 + size
        validEnd = offset
        return next()
    }

    /// Checks that `content` is a whole number of well-formed records within the limits, ending
    /// in a block check record whose digest matches the bytes before it. Returns the number of
    /// records (the check not included).
    private func validateRecords(in content: Range<Int>, frameRecords: UInt32, frameLimit: UInt32) -> Result<UInt32, RecordFramingError> {
        let block = window.bytes(content)
        guard block.count >= SegmentFormat.blockCheckBytes else {
            return .failure(RecordFramingError("block of \(block.count) bytes has no block check"))
        }
        let checkStart = block.count - SegmentFormat.blockCheckBytes
        guard block[checkStart] == UInt8(SegmentFormat.blockCheckBytes - 1),
              block[checkStart + 1] == UInt8(SegmentFormat.blockCheckKind), block[checkStart + 2] == 0
        else { return .failure(RecordFramingError("block does not end with its block check")) }
        let records = UnsafeRawBufferPointer(rebasing: block[..<checkStart])
        guard XXHash32.hash(records) == block.loadUnaligned(fromByteOffset: checkStart + 3, as: UInt32.self).littleEndian else {
            return .failure(RecordFramingError("block check does not match the decoded bytes"))
        }
        var position = 0
        var count: UInt32 = 0
        while position < records.count {
            guard let length = Varint.load(from: records, at: position) else {
                return .failure(RecordFramingError("record length at block byte \(position) is malformed"))
            }
            guard length.value <= UInt64(maxRecordBytes) else {
                return .failure(RecordFramingError("record length \(length.value) exceeds the segment's limit \(maxRecordBytes)"))
            }
            let recordEnd = length.next + Int(length.value)
            guard recordEnd <= records.count else {
                return .failure(RecordFramingError("record at block byte \(position) runs past the block's end"))
            }
            let body = UnsafeRawBufferPointer(rebasing: records[length.next..<recordEnd])
            guard let kind = Varint.load(from: body, at: 0), kind.value <= UInt64(UInt32.max),
                  kind.value != UInt64(SegmentFormat.blockCheckKind),
                  Varint.load(from: body, at: kind.next) != nil
            else {
                return .failure(RecordFramingError("record at block byte \(position) has a malformed kind or time"))
            }
            count += 1
            guard frameRecords + count <= frameLimit else {
                return .failure(RecordFramingError("frame holds more than \(frameLimit) records"))
            }
            // Sequence numbers stop below 2^64 - 1, which no writer gives out (found by fuzz-journal:
            // a damaged header or marker claiming a base near it made numbering overflow).
            guard UInt64(count) <= UInt64.max - nextSequence else {
                return .failure(RecordFramingError("records would be numbered past \(UInt64.max - 1)"))
            }
            position = recordEnd
        }
        return .success(count)
    }

    private struct RecordFramingError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private mutating func takeRecord() -> RecordView {
        let all = window.bytes(pendingRecords.cursor..<pendingRecords.end)
        // Framing was validated when the block was decoded.
        let length = Varint.load(from: all, at: 0)!
        let body = UnsafeRawBufferPointer(rebasing: all[length.next..<(length.next + Int(length.value))])
        let kind = Varint.load(from: body, at: 0)!
        let delta = Varint.load(from: body, at: kind.next)!
        time = JournalTime(microsecondsSince1970: time.microsecondsSince1970 &+ Varint.unzigzag(delta.value))
        pendingRecords.cursor += length.next + Int(length.value)
        let view = RecordView(
            sequence: nextSequence, kind: UInt32(kind.value), timestamp: time,
            payload: UnsafeRawBufferPointer(rebasing: body[delta.next...]))
        nextSequence += 1
        return view
    }

    // MARK: - Damage

    /// Stops at damage: a torn tail when this is the last segment and nothing readable follows,
    /// corruption otherwise. Damage that looks cut short is probed too: a flipped size field makes
    /// a block run past the end of the file, and must not hide the frames after it.
    private mutating func damage(at position: Int, _ reason: String) -> Step {
        let kind: Damage.Kind
        if !isLastSegment {
            kind = .corruption
        } else {
            kind = TailProbe(bytes: bytes, from: position, maxBlockBytes: frame?.maxBlockBytes ?? SegmentFormat.maxBlockBytes)
                .findsReadableData() ? .corruption : .tornTail
        }
        let found = Damage(kind: kind, segment: name, offset: position, sequence: nextSequence, reason: reason)
        // Stay put: every further call reports the same damage.
        pendingRecords = PendingRecords()
        frame = nil
        expectingFrameAfterMarker = false
        damageFound = found
        return .damage(found)
    }

    /// After damage at `position`: the offset of the first valid sync marker at or after it, if
    /// any, and the decoder repositioned there. Salvage continues from it. The damage itself may
    /// be a valid marker whose sequence does not follow on (the frames before it were lost): its
    /// frame is readable, so salvage resumes there, numbering from the marker's sequence.
    mutating func resynchronize(from position: Int) -> (offset: Int, sequence: UInt64)? {
        guard let found = TailProbe(bytes: bytes, from: position - 1, maxBlockBytes: SegmentFormat.maxBlockBytes).nextSyncMarker() else {
            return nil
        }
        damageFound = nil
        pendingRecords = PendingRecords()
        frame = nil
        expectingFrameAfterMarker = false
        offset = found.offset
        nextSequence = found.marker.firstSequence
        currentSyncPoint = nil
        return (found.offset, found.marker.firstSequence)
    }


    // MARK: - Helpers

    private func load32(_ position: Int) -> UInt32 {
        bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
    }

    /// Releases the mapping's pages behind the decoder, so a scan's resident set stays bounded.
    private mutating func releasePages() {
        let chunk = 1 << 20
        if offset - discardedUpTo >= chunk {
            contents.discard(discardedUpTo..<offset)
            discardedUpTo = offset
        }
    }
}

extension SegmentDecoder {
    /// The sync points of a segment found by walking its structure (markers, frame headers and
    /// block sizes) without decoding or verifying blocks; stops at the first thing it does not
    /// recognise. Used to rebuild a missing index: every entry is still checked before use.
    static func walkSyncPoints(_ bytes: UnsafeRawBufferPointer, from start: Int) -> [IndexEntry] {
        var entries: [IndexEntry] = []
        var offset = start
        func load32(_ position: Int) -> UInt32 {
            bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
        }
        walk: while let marker = SyncMarker.decode(from: bytes, at: offset) {
            entries.append(IndexEntry(offset: offset, sequence: marker.firstSequence, time: marker.firstTime))
            offset += SegmentFormat.syncMarkerBytes
            guard bytes.count - offset >= 7, load32(offset) == SegmentFormat.lz4FrameMagic else { break }
            let flags = bytes[offset + 4]
            offset += 7 + (flags & 0x08 != 0 ? 8 : 0)
            let trailer = flags & 0x04 != 0 ? 8 : 4
            let checksum = flags & 0x10 != 0 ? 4 : 0
            while bytes.count - offset >= 4 {
                let word = load32(offset)
                if word == 0 {
                    offset += trailer
                    continue walk
                }
                offset += 4 + Int(word & ~SegmentFormat.uncompressedBlockFlag) + checksum
            }
            break
        }
        return entries
    }
}
