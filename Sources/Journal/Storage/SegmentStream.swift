/// A journal carried as one byte stream: its segment files concatenated in sequence order, as
/// `cat DIR/segment-*.lz4` prints them (for example, piped off a device). The concatenation is
/// itself a valid LZ4 frame stream, and every segment starts with its header frame, so the
/// stream splits back into segments exactly. A stream that ends in a segment header cut short
/// (the writer was creating its next segment when it crashed, or the copy stopped there) keeps
/// it as a last segment of its own, whose header the reader reports as a torn tail, as it does in
/// a directory.
public enum SegmentStream {
    /// Splits `bytes` before each segment header and stores each segment in `storage` under
    /// `directory`, named as the writer names it. Returns how many segments there were.
    ///
    /// Throws, naming `source`: ``JournalError/notAJournal(path:reason:)`` when the stream is
    /// empty, does not begin with a segment header, or holds two segments that start at the same
    /// sequence (one would hide the other); ``JournalError/newerFormat(path:found:supported:)``
    /// for a segment of a newer major version. Never reads past `bytes`.
    public static func unpack(_ bytes: [UInt8], source: String, into storage: InMemoryStorage, directory: String) throws -> Int {
        let starts = try segmentStarts(in: bytes, source: source)
        guard let first = starts.first, first.offset == 0 else {
            throw JournalError.notAJournal(path: source, reason: bytes.isEmpty
                ? "the stream is empty"
                : "the stream does not begin with a segment header (expected the concatenated segment files)")
        }
        var seen: Set<UInt64> = []
        for start in starts where !seen.insert(start.baseSequence).inserted {
            throw JournalError.notAJournal(path: source, reason: "two segments start at sequence \(start.baseSequence) "
                                           + "(the second at byte \(start.offset)); the stream is not one journal")
        }
        try storage.createDirectory(at: directory)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].offset : bytes.count
            storage.setBytes(Array(bytes[start.offset..<end]),
                             of: directory + "/" + SegmentFormat.segmentFileName(baseSequence: start.baseSequence))
        }
        return starts.count
    }

    /// Where each segment header begins: the header magic followed by a header whose checksum
    /// holds, or, last, a header cut short by the end of the stream (``cutHeaderBase(in:at:after:)``).
    static func segmentStarts(in bytes: [UInt8], source: String) throws -> [(offset: Int, baseSequence: UInt64)] {
        let magic = withUnsafeBytes(of: SegmentFormat.headerMagic.littleEndian) { Array($0) }
        var starts: [(Int, UInt64)] = []
        var newer: FormatVersion?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                if raw[offset] == magic[0] && raw[offset + 1] == magic[1] && raw[offset + 2] == magic[2] && raw[offset + 3] == magic[3] {
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    do throws(SegmentHeader.DecodingError) {
                        let (header, length) = try SegmentHeader.decode(from: rest)
                        starts.append((offset, header.baseSequence))
                        offset += length
                        continue
                    } catch {
                        if case .truncated = error, let base = cutHeaderBase(in: raw, at: offset, after: starts.last?.1) {
                            starts.append((offset, base))
                            break
                        }
                        // Anything but a newer version is not a header: these bytes belong to
                        // the segment before.
                        if case .newerMajorVersion(let version) = error, newer == nil { newer = version }
                    }
                }
                offset += 1
            }
        }
        if let newer { throw JournalError.newerFormat(path: source, found: newer, supported: SegmentFormat.currentVersion) }
        return starts
    }

    /// The base sequence to name a segment by whose header, at `offset`, the end of `raw` cuts
    /// short: nil unless what there is of it reads as a header's beginning (its magic, a size a
    /// header can have, as much of the `JRNL` identifier as is there). Its own base sequence when
    /// the cut leaves it; else the one after the segment before (`previous`), so that it sorts
    /// last (the reader names the sequence it expected there, not the file's); nil after a
    /// segment based at the last sequence there is.
    static func cutHeaderBase(in raw: UnsafeRawBufferPointer, at offset: Int, after previous: UInt64?) -> UInt64? {
        let remaining = raw.count - offset
        guard remaining >= 8 else { return nil }
        let size = Int(raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian)
        guard (61...SegmentFormat.maxHeaderBytes).contains(size), remaining < 8 + size else { return nil }
        let identifier = SegmentFormat.headerIdentifier
        for index in 0..<min(identifier.count, remaining - 8) where raw[offset + 8 + index] != identifier[index] { return nil }
        // No name sorts after a segment based at the last sequence there is.
        let after = previous ?? 0
        guard after < .max else { return nil }
        // Magic and size (8), identifier (4), version (4), journal id (16), then the base sequence.
        if remaining >= 40 {
            let base = raw.loadUnaligned(fromByteOffset: offset + 32, as: UInt64.self).littleEndian
            if base > after { return base }
        }
        return after + 1
    }
}
