/// Looks past a bad spot for anything still readable: a valid sync marker, or a block whose
/// stored checksum matches. Finding either means the bad spot is corruption, not a torn tail.
struct TailProbe {
    let bytes: UnsafeRawBufferPointer
    /// The offset of the bad spot; the probe looks strictly after it.
    let start: Int
    let maxBlockBytes: Int
    /// Hashing budget for the block search. Past it the probe answers "readable data found",
    /// the conservative verdict: corruption is kept and reported, never truncated away.
    var hashingBudget = 64 << 20

    init(bytes: UnsafeRawBufferPointer, from start: Int, maxBlockBytes: Int) {
        self.bytes = bytes
        self.start = start
        self.maxBlockBytes = maxBlockBytes
    }

    /// The first valid sync marker after the bad spot.
    func nextSyncMarker() -> (offset: Int, marker: SyncMarker)? {
        var position = start + 1
        let last = bytes.count - SegmentFormat.syncMarkerBytes
        while position <= last {
            if bytes[position] == 0x51,
               bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian == SegmentFormat.syncMarkerMagic,
               let marker = SyncMarker.decode(from: bytes, at: position) {
                return (position, marker)
            }
            position += 1
        }
        return nil
    }

    /// Whether any sync marker or checksum-valid block follows the bad spot.
    func findsReadableData() -> Bool {
        if nextSyncMarker() != nil { return true }
        var budget = hashingBudget
        var position = start + 1
        while position + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
            let size = Int(word & ~SegmentFormat.uncompressedBlockFlag)
            if size > 0, size <= maxBlockBytes, position + 8 + size <= bytes.count {
                budget -= size
                if budget < 0 { return true }
                let stored = UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<(position + 4 + size)])
                let checksum = bytes.loadUnaligned(fromByteOffset: position + 4 + size, as: UInt32.self).littleEndian
                if XXHash32.hash(stored) == checksum { return true }
            }
            position += 1
        }
        return false
    }
}
