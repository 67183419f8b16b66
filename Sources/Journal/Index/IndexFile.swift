/// The sparse index file kept beside each segment (`segment-….idx`): a 16-byte header then one
/// 28-byte entry per sync point. It is a cache: written without fsync, read only as a hint, and
/// every entry is checked against the segment's own sync marker before it is used.
enum IndexFile {
    static let identifier: [UInt8] = Array("JIDX".utf8)
    static let version: UInt16 = 1
    static let headerBytes = 16
    static let entryBytes = 28

    static func header(baseSequence: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: headerBytes)
        writer.writeBytes(identifier)
        writer.writeUInt16(version)
        writer.writeUInt16(0)
        writer.writeUInt64(baseSequence)
        return writer.bytes
    }

    static func encode(_ entry: IndexEntry) -> [UInt8] {
        var writer = ByteWriter(capacity: entryBytes)
        writer.writeUInt64(UInt64(entry.offset))
        writer.writeUInt64(entry.sequence)
        writer.writeInt64(entry.time.microsecondsSince1970)
        writer.writeUInt32(XXHash32.hash(writer.bytes))
        return writer.bytes
    }

    /// The entries of an index file for the segment with `baseSequence`, stopping at the first
    /// entry that is partial, fails its checksum, or does not move forward.
    static func decode(_ bytes: UnsafeRawBufferPointer, baseSequence: UInt64) -> [IndexEntry] {
        guard bytes.count >= headerBytes,
              Array(bytes[0..<4]) == identifier,
              bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == version,
              bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian == baseSequence
        else { return [] }
        var entries: [IndexEntry] = []
        var position = headerBytes
        while position + entryBytes <= bytes.count {
            let body = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + 24)])
            guard XXHash32.hash(body) == bytes.loadUnaligned(fromByteOffset: position + 24, as: UInt32.self).littleEndian else { break }
            let offset = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian
            let entry = IndexEntry(
                offset: Int(truncatingIfNeeded: offset),
                sequence: bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self).littleEndian,
                time: JournalTime(microsecondsSince1970: bytes.loadUnaligned(fromByteOffset: position + 16, as: Int64.self).littleEndian))
            if let last = entries.last, entry.offset <= last.offset || entry.sequence < last.sequence { break }
            guard entry.offset >= 0, offset <= UInt64(Int.max) else { break }
            entries.append(entry)
            position += entryBytes
        }
        return entries
    }
}
