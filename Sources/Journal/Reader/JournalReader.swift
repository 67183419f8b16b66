import Foundation

/// Reads a journal directory: sequential iteration, seeking by sequence or time through the
/// sparse index, verification, and salvage.
///
/// A reader looks at the files as they are when it reads them; it never modifies anything.
/// Several readers (and a live writer) may use one directory at the same time.
public struct JournalReader: Sendable {
    /// One segment file and what its header says.
    ///
    /// A reader opened with ``HeaderReading/onDemand`` reads a segment's header (and learns its
    /// length) the first time ``bytes``, ``header`` or ``headerProblem`` is asked for.
    public struct Segment: Sendable {
        public let name: String
        /// The base sequence named by the file name.
        public let baseSequence: UInt64
        let slot: SegmentHeaderSlot
        /// The file's length in bytes.
        public var bytes: Int { slot.value.bytes }
        /// The decoded header, or nil when it could not be read (see ``headerProblem``).
        public var header: SegmentHeader? { slot.value.header }
        public var headerProblem: String? { slot.value.problem }
        var headerIsTruncated: Bool { slot.value.isTruncated }
    }

    /// When a reader reads its segments' headers.
    public enum HeaderReading: Sendable {
        /// All of them when it opens: a segment of a newer format or of another journal anywhere
        /// in the directory fails the opening.
        case everySegment
        /// Each when it is first needed (a cursor opening the segment, a look at its header):
        /// opening costs one directory listing whatever the journal's length. A newer format or
        /// another journal's segment throws when that segment is reached
        /// (``header(ofSegment:)``, or a cursor opening it), not before.
        case onDemand
    }

    /// How a cursor treats corruption.
    public enum ReadMode: Sendable {
        /// Corruption throws ``JournalError/corrupted(_:)``; a torn tail ends the iteration.
        case strict
        /// Corruption is recorded and skipped: reading resumes at the next sync point.
        case salvage
        /// Corruption, and a segment missing, are recorded and skipped whole segments at a
        /// time: reading resumes at the start of the next segment, never inside one. For a
        /// reader that folds records into a state that a lost record would change: it can
        /// begin again only where a segment begins (the writer makes a segment's first record
        /// one its owner can start from alone).
        case skipToNextSegment
    }

    public let directory: String
    /// The segments, oldest first.
    public let segments: [Segment]
    let storage: any JournalStorage
    /// The mode ``records(from:mode:)`` and ``records(fromTime:mode:)`` read in when they are
    /// not given one: a command opens the reader once and every cursor of its walk reads alike.
    public var readMode = ReadMode.strict

    /// Whether headers are read on demand, so segments are checked when they are reached.
    let readsHeadersOnDemand: Bool
    /// The LZ4 block decoder this reader's cursors use: liblz4 where it is linked in; tests and
    /// the fuzzer read the same journals through the Swift decoder too.
    package var lz4Implementation = LZ4Implementation.platformDefault

    /// Lists and checks the segments of `directory`.
    ///
    /// Throws when the directory cannot be read and, reading ``HeaderReading/everySegment``
    /// (the default), when a segment comes from a newer major format version or when segments
    /// of different journals are mixed. A damaged header does not throw: it is reported by
    /// ``verify(progress:)`` and by cursors reaching that segment.
    public init(directory: String, storage: any JournalStorage = PosixStorage(), headers: HeaderReading = .everySegment) throws {
        let listing = try JournalDirectory(path: directory, storage: storage)
        var segments: [Segment] = []
        segments.reserveCapacity(listing.segments.count)
        var journalID: UUID?
        for entry in listing.segments {
            let path = listing.path(of: entry.name)
            guard headers == .everySegment else {
                segments.append(Segment(name: entry.name, baseSequence: entry.baseSequence,
                                        slot: SegmentHeaderSlot(path: path, storage: storage)))
                continue
            }
            let reading = try SegmentHeaderSlot.read(path: path, storage: storage)
            if let version = reading.newerVersion {
                throw JournalError.newerFormat(path: path, found: version, supported: SegmentFormat.currentVersion)
            }
            if let header = reading.header {
                if let journalID, journalID != header.journalID { throw JournalError.mixedJournals(path: directory) }
                journalID = header.journalID
            }
            segments.append(Segment(name: entry.name, baseSequence: entry.baseSequence,
                                    slot: SegmentHeaderSlot(path: path, storage: storage, reading: reading)))
        }
        self.directory = directory
        self.segments = segments
        self.storage = storage
        readsHeadersOnDemand = headers == .onDemand
    }

    /// The header of segment `index` (nil when damaged), checked as opening every segment would
    /// check it: throws ``JournalError/newerFormat(path:found:supported:)`` for a newer major
    /// version and ``JournalError/mixedJournals(path:)`` when it belongs to another journal
    /// than the directory's first readable segment.
    public func header(ofSegment index: Int) throws -> SegmentHeader? {
        let reading = segments[index].slot.value
        if let version = reading.newerVersion {
            throw JournalError.newerFormat(path: directory + "/" + segments[index].name, found: version,
                                           supported: SegmentFormat.currentVersion)
        }
        if let header = reading.header { try checkBelongs(header) }
        return reading.header
    }

    /// Throws ``JournalError/mixedJournals(path:)`` when `header` is not of this journal (a
    /// reader reading every header has checked them all already).
    func checkBelongs(_ header: SegmentHeader) throws {
        guard readsHeadersOnDemand, let journalID, journalID != header.journalID else { return }
        throw JournalError.mixedJournals(path: directory)
    }

    /// The journal's id, from the first readable segment header.
    public var journalID: UUID? { segments.lazy.compactMap(\.header).first?.journalID }

    /// What wrote the journal (``SegmentHeader/producer``), from the first readable segment header.
    public var producer: String? { segments.lazy.compactMap(\.header).first?.producer }

    /// A cursor over the records from `sequence` on (from the first retained record when nil or
    /// older than the journal).
    public func records(from sequence: UInt64? = nil, mode: ReadMode? = nil) throws -> RecordCursor {
        let start = sequence.map { sequence in segments.lastIndex { $0.baseSequence <= sequence } ?? 0 } ?? 0
        return RecordCursor(reader: self, firstSegment: start, start: sequence.map { .sequence($0) }, mode: mode ?? readMode)
    }

    /// A cursor over the records whose timestamp is at or after `time` (timestamps are assumed
    /// to be non-decreasing; the cursor starts at the last sync point before `time`).
    public func records(fromTime time: JournalTime, mode: ReadMode? = nil) throws -> RecordCursor {
        let start = segments.lastIndex { ($0.header?.baseTime ?? time) <= time } ?? 0
        return RecordCursor(reader: self, firstSegment: start, start: .time(time), mode: mode ?? readMode)
    }

    /// The sync points of segment `index`: from its index file when present, otherwise by
    /// walking the segment. Entries are hints; cursors check each against the data.
    public func syncPoints(ofSegment index: Int) throws -> [IndexEntry] {
        let segment = segments[index]
        let indexPath = directory + "/" + SegmentFormat.indexFileName(baseSequence: segment.baseSequence)
        if let contents = try? storage.contents(of: indexPath) {
            let entries = IndexFile.decode(contents.bytes, baseSequence: segment.baseSequence)
            if !entries.isEmpty { return entries }
        }
        let contents = try storage.contents(of: directory + "/" + segment.name)
        guard let (_, headerLength) = try? SegmentHeader.decode(from: contents.bytes) else { return [] }
        return SegmentDecoder.walkSyncPoints(contents.bytes, from: headerLength)
    }

    /// Reads every record of every segment, checking everything, and reports what it found.
    /// Never throws for damage: damage is the report's content.
    public func verify(progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil) -> VerificationReport {
        var report = VerificationReport()
        report.segments = segments.count
        report.fileBytes = segments.reduce(0) { $0 + $1.bytes }
        let cursor = RecordCursor(reader: self, firstSegment: 0, start: nil, mode: .salvage)
        cursor.progress = progress
        do {
            while let record = try cursor.nextView() {
                report.records += 1
                if record.isSnapshot { report.snapshots += 1 }
                if report.firstSequence == nil {
                    report.firstSequence = record.sequence
                    report.firstTime = record.timestamp
                }
                report.lastSequence = record.sequence
                report.lastTime = record.timestamp
            }
        } catch {
            report.unreadable = "\(error)"
        }
        report.recordBytes = cursor.decodedBytes
        report.tornTail = cursor.tornTail
        report.corruption = cursor.corruption
        report.skipped = cursor.skipped
        report.abandoned = cursor.abandoned
        return report
    }
}
