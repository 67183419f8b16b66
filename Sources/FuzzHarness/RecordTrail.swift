import Journal

/// What one cursor returned, compactly: the first records' digests, a digest of all of them,
/// how it ended, and whether its sequence numbers ran without a gap. Bounded whatever the
/// journal holds, so comparing cursors costs no more memory than one of them.
struct RecordTrail {
    /// One record, reduced to what comparing two cursors needs.
    struct Digest: Equatable {
        var sequence: UInt64
        var kind: UInt32
        var time: Int64
        var payloadBytes: Int
        var payloadHash: UInt32
    }

    /// How many digests are kept for comparing prefixes.
    static let keptDigests = 1024

    private(set) var count = 0
    private(set) var digests: [Digest] = []
    /// A digest of every record in order.
    private(set) var combined: UInt64 = 0
    /// What the cursor threw, if it stopped on an error rather than at the end.
    private(set) var failure: String?
    /// The damage the cursor reported: each corruption it skipped, then the torn tail it ended on.
    private(set) var damage: [Damage] = []
    /// Whether each record's sequence number was the previous one's plus one, or the first
    /// after numbers the cursor stepped over because a segment's header declared them
    /// abandoned (``RecordCursor/abandoned``).
    private(set) var isConsecutive = true
    private var lastSequence: UInt64?

    /// Reads `cursor` to its end, or to `limit` records.
    init(_ cursor: RecordCursor, limit: Int = .max) {
        do {
            while count < limit, let record = try cursor.nextView() {
                append(record, declaredSkip: cursor.abandoned.last)
            }
        } catch {
            failure = "\(error)"
        }
        damage = cursor.corruption + (cursor.tornTail.map { [$0] } ?? [])
    }

    /// A trail that never read anything because the cursor could not be made.
    init(failure: String) {
        self.failure = failure
    }

    private mutating func append(_ record: RecordView, declaredSkip: ClosedRange<UInt64>?) {
        let digest = Digest(sequence: record.sequence, kind: record.kind, time: record.timestamp.microsecondsSince1970,
                            payloadBytes: record.payload.count, payloadHash: XXHash32.hash(record.payload))
        if let previous = lastSequence {
            let follows = previous < .max && record.sequence == previous + 1
            let declared = previous < .max && record.sequence > previous + 1 && declaredSkip == previous + 1...record.sequence - 1
            if !follows && !declared { isConsecutive = false }
        }
        lastSequence = record.sequence
        if digests.count < Self.keptDigests { digests.append(digest) }
        mix(digest.sequence)
        mix(UInt64(digest.kind))
        mix(UInt64(bitPattern: digest.time))
        mix(UInt64(digest.payloadBytes))
        mix(UInt64(digest.payloadHash))
        count += 1
    }

    /// Folds one field into ``combined`` (FNV-1a style, a word at a time).
    private mutating func mix(_ field: UInt64) {
        combined = (combined ^ field) &* 0x0000_0100_0000_01B3
    }
}
