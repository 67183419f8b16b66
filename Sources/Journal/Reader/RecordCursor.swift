/// Iterates a journal's records in sequence order, across segments.
///
/// Obtained from ``JournalReader/records(from:mode:)``. Not thread-safe: use one cursor per
/// thread. Memory stays bounded by one decode window whatever the journal's length.
public final class RecordCursor {
    enum Start {
        case sequence(UInt64)
        case time(JournalTime)
    }

    /// The torn tail that ended the iteration, if it ended on one.
    public private(set) var tornTail: Damage?
    /// Corruption found so far (the salvaging modes only; strict mode throws at the first).
    public private(set) var corruption: [Damage] = []
    /// What the salvaging modes stepped over so far.
    public private(set) var skipped: [SkippedRange] = []
    /// The sequence numbers passed so far that a failed writer gave out and no segment holds, as
    /// the segment after each run declares (``SegmentHeader/continuesFrom``): not damage.
    public private(set) var abandoned: [ClosedRange<UInt64>] = []
    /// Decompressed bytes decoded so far.
    public var decodedBytes: Int { finishedDecodedBytes + (decoder?.decodedBytes ?? 0) }

    var progress: ((Int, Int) -> Void)?

    private let reader: JournalReader
    private let mode: JournalReader.ReadMode
    private let window: DecodeWindow
    private var segmentIndex: Int
    /// Its exclusive access is not checked at run time: only this cursor's methods touch it,
    /// never with another access open, and the cursor is not Sendable, so one thread at a
    /// time; checking it would cost two checks per record.
    @exclusivity(unchecked) private var decoder: SegmentDecoder?
    private var start: Start?
    private var expectedSequence: UInt64?
    private var finishedDecodedBytes = 0
    /// The file bytes of the segments before the current one, counted once progress is first
    /// reported (so a cursor nobody watches never asks for the lengths of segments it skips).
    private var bytesBeforeSegment: Int?
    private lazy var totalBytes = reader.segments.reduce(0) { $0 + $1.bytes }

    init(reader: JournalReader, firstSegment: Int, start: Start?, mode: JournalReader.ReadMode) {
        self.reader = reader
        self.window = DecodeWindow(decoding: reader.lz4Implementation)
        self.segmentIndex = firstSegment
        self.start = start
        self.mode = mode
    }

    /// The next record, with its own copy of the payload; nil at the end of the journal.
    public func next() throws -> JournalRecord? {
        try nextView().map(JournalRecord.init)
    }

    /// The next record, its payload borrowed until the next call; nil at the end of the journal.
    ///
    /// Strict mode throws ``JournalError/corrupted(_:)`` at corruption; the salvaging modes skip it.
    public func nextView() throws -> RecordView? {
        while true {
            // Stepped in place through optional chaining (comparing it with nil would copy it).
            guard let step = decoder?.next() else {
                guard try openNextSegment() else { return nil }
                continue
            }
            switch step {
            case .record(let record):
                expectedSequence = record.sequence + 1
                if let start {
                    switch start {
                    case .sequence(let first) where record.sequence < first: continue
                    case .time(let first) where record.timestamp < first: continue
                    default: self.start = nil
                    }
                }
                return record
            case .syncPoint:
                if let decoder { reportProgress(within: decoder.offset) }
                continue
            case .end:
                expectedSequence = decoder!.nextSequence
                finishSegment()
            case .damage(let damage):
                try handle(damage)
            }
        }
    }

    // MARK: - Segments

    /// Opens the segment at `segmentIndex`; false when there are no more.
    private func openNextSegment() throws -> Bool {
        let segments = reader.segments
        guard segmentIndex < segments.count else { return false }
        let segment = segments[segmentIndex]
        let isLast = segmentIndex == segments.count - 1
        let contents = try reader.storage.contents(of: reader.directory + "/" + segment.name)
        do {
            decoder = try SegmentDecoder(name: segment.name, contents: contents, isLastSegment: isLast, window: window)
        } catch {
            let (reason, truncated): (String, Bool)
            switch error {
            case .invalidHeader(let why, let cut): (reason, truncated) = (why, cut)
            case .newerVersion(let version):
                throw JournalError.newerFormat(path: reader.directory + "/" + segment.name, found: version,
                                               supported: SegmentFormat.currentVersion)
            }
            let damage = Damage(kind: isLast && truncated ? .tornTail : .corruption, segment: segment.name,
                                offset: 0, sequence: expectedSequence ?? segment.baseSequence, reason: reason)
            if damage.kind == .tornTail {
                tornTail = damage
                segmentIndex = segments.count
                return false
            }
            guard mode != .strict else { throw JournalError.corrupted(damage) }
            corruption.append(damage)
            skipped.append(SkippedRange(damage: damage, resumedAtOffset: nil, resumedAtSequence: nil))
            expectedSequence = nil
            advanceSegment()
            return true
        }
        if let header = decoder?.header { try reader.checkBelongs(header) }
        if let expected = expectedSequence, let header = decoder?.header, header.continuesFrom == expected {
            // The segment says where it continues from, and the previous one ends there.
            abandoned.append(expected...header.baseSequence - 1)
        } else if let expected = expectedSequence, let base = decoder?.header.baseSequence, base != expected {
            let reason = base > expected
                ? "sequences \(expected)...\(base - 1) are missing before this segment"
                : "segment starts at sequence \(base), overlapping records up to \(expected - 1)"
            let damage = Damage(kind: .corruption, segment: segment.name, offset: 0, sequence: expected, reason: reason)
            guard mode != .strict else { throw JournalError.corrupted(damage) }
            corruption.append(damage)
            skipped.append(SkippedRange(damage: damage, resumedAtOffset: 0, resumedAtSequence: base))
        }
        if let start { try seek(to: start) }
        return true
    }

    /// Moves the fresh decoder to the last sync point before the start position, when the index
    /// names one that the data confirms.
    private func seek(to start: Start) throws {
        guard var decoder else { return }
        let points = (try? reader.syncPoints(ofSegment: segmentIndex)) ?? []
        let candidate: IndexEntry?
        switch start {
        case .sequence(let first): candidate = points.last { $0.sequence <= first }
        case .time(let first): candidate = points.last { $0.time <= first }
        }
        if let candidate, decoder.reposition(toSyncMarkerAt: candidate.offset), decoder.nextSequence == candidate.sequence {
            self.decoder = decoder
        }
    }

    private func finishSegment() {
        advanceSegment()
    }

    private func advanceSegment() {
        if progress != nil, let before = bytesBeforeSegment {
            bytesBeforeSegment = before + reader.segments[segmentIndex].bytes
        }
        finishedDecodedBytes += decoder?.decodedBytes ?? 0
        decoder = nil
        segmentIndex += 1
        reportProgress(within: 0)
    }

    /// Reports `offset` bytes into the current segment to ``progress``, if anyone watches.
    private func reportProgress(within offset: Int) {
        guard let progress else { return }
        let before = bytesBeforeSegment ?? reader.segments.prefix(segmentIndex).reduce(0) { $0 + $1.bytes }
        bytesBeforeSegment = before
        progress(before + offset, totalBytes)
    }

    // MARK: - Damage

    private func handle(_ damage: Damage) throws {
        if damage.kind == .tornTail {
            tornTail = damage
            finishSegment()
            segmentIndex = reader.segments.count
            return
        }
        guard mode != .strict else { throw JournalError.corrupted(damage) }
        corruption.append(damage)
        if mode == .salvage, let resumed = decoder!.resynchronize(from: damage.offset) {
            skipped.append(SkippedRange(damage: damage, resumedAtOffset: resumed.offset, resumedAtSequence: resumed.sequence))
            expectedSequence = resumed.sequence
        } else {
            let nextBase = reader.segments.indices.contains(segmentIndex + 1) ? reader.segments[segmentIndex + 1].baseSequence : nil
            skipped.append(SkippedRange(damage: damage, resumedAtOffset: nil, resumedAtSequence: nextBase))
            expectedSequence = nil
            finishSegment()
        }
    }
}
