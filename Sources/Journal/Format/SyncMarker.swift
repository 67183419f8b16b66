/// The skippable frame written before every LZ4 frame of records: the absolute sequence number
/// and time of the frame's first record.
///
/// A reader can start at any sync marker without reading what precedes it (the LZ4 frame that
/// follows does not refer to earlier frames), which makes markers the seek targets of the sparse
/// index and the resumption points of salvage.
struct SyncMarker: Equatable {
    var firstSequence: UInt64
    var firstTime: JournalTime

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: SegmentFormat.syncMarkerBytes)
        writer.writeUInt32(SegmentFormat.syncMarkerMagic)
        writer.writeUInt32(20)
        writer.writeUInt64(firstSequence)
        writer.writeInt64(firstTime.microsecondsSince1970)
        let checksum = writer.bytes.withUnsafeBytes { XXHash32.hash(UnsafeRawBufferPointer(rebasing: $0[8..<24])) }
        writer.writeUInt32(checksum)
        return writer.bytes
    }

    /// Decodes a marker at `offset`, or returns nil when the bytes there are not a valid marker.
    static func decode(from bytes: UnsafeRawBufferPointer, at offset: Int) -> SyncMarker? {
        guard offset >= 0, bytes.count - offset >= SegmentFormat.syncMarkerBytes else { return nil }
        guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian == SegmentFormat.syncMarkerMagic,
              bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian == 20
        else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 24)])
        let stored = bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt32.self).littleEndian
        guard XXHash32.hash(body) == stored else { return nil }
        return SyncMarker(
            firstSequence: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian,
            firstTime: JournalTime(microsecondsSince1970: bytes.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self).littleEndian))
    }
}
