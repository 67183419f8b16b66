import Foundation

/// Reads a journal directory: sequential iteration, seeking by sequence or time through the
/// sparse index, verification, and salvage.
///
/// A reader looks at the files as they are when it reads them; it never modifies anything.
/// Several readers (and a live writer) may use one directory at the same time.
public struct JournalReader: Sendable {
    /// One segment file and what its header says.
    public struct Segment: Sendable {
        public let name: String
        /// The base sequence named by the file name.
        public let baseSequence: UInt64
        public let bytes: Int
        /// The decoded header, or nil when it could not be read (see ``headerProblem``).
        public let header: SegmentHeader?
        public let headerProblem: String?
        let headerIsTruncated: Bool
    }

    /// How a cursor treats corruption.
    public enum ReadMode: Sendable {
        /// Corruption throws ``JournalError/corrupted(_:)``; a torn tail ends the iteration.
        case strict
        /// Corruption is recorded and skipped: reading resumes at the next sync point.
        case salvage
    }

    public let directory: String
    /// The segments, oldest first.
    public let segments: [Segment]
    let storage: any JournalStorage

    /// Lists and checks the segments of `directory`.
    ///
    /// Throws when the directory cannot be read, when a segment comes from a newer major format
    /// version, or when segments of different journals are mixed. A damaged header does not
    /// throw: it is reported by ``verify(progress:)`` and by cursors reaching that segment.
    public init(directory: String, storage: any JournalStorage = PosixStorage()) throws {
        let listing = try JournalDirectory(path: directory, storage: storage)
        var segments: [Segment] = []
        var journalID: UUID?
        for entry in listing.segments {
            let path = listing.path(of: entry.name)
            let contents = try storage.contents(of: path)
            do {
                let (header, _) = try SegmentHeader.decode(from: contents.bytes)
                if let journalID, journalID != header.journalID { throw JournalError.mixedJournals(path: directory) }
                journalID = header.journalID
                segments.append(Segment(name: entry.name, baseSequence: entry.baseSequence, bytes: contents.bytes.count,
                                        header: header, headerProblem: nil, headerIsTruncated: false))
            } catch SegmentHeader.DecodingError.newerMajorVersion(let version) {
                throw JournalError.newerFormat(path: path, found: version, supported: SegmentFormat.currentVersion)
            } catch let error as SegmentHeader.DecodingError {
                segments.append(Segment(name: entry.name, baseSequence: entry.baseSequence, bytes: contents.bytes.count,
                                        header: nil, headerProblem: "\(error)", headerIsTruncated: error == .truncated))
            }
        }
        self.directory = directory
        self.segments = segments
        self.storage = storage
    }

    /// The journal's id, from the first readable segment header.
    public var journalID: UUID? { segments.lazy.compactMap(\.header).first?.journalID }

    /// A cursor over the records from `sequence` on (from the first retained record when nil or
    /// older than the journal).
    public func records(from sequence: UInt64? = nil, mode: ReadMode = .strict) throws -> RecordCursor {
        let start = sequence.map { sequence in segments.lastIndex { $0.baseSequence <= sequence } ?? 0 } ?? 0
        return RecordCursor(reader: self, firstSegment: start, start: sequence.map { .sequence($0) }, mode: mode)
    }

    /// A cursor over the records whose timestamp is at or after `time` (timestamps are assumed
    /// to be non-decreasing; the cursor starts at the last sync point before `time`).
    public func records(fromTime time: JournalTime, mode: ReadMode = .strict) throws -> RecordCursor {
        let start = segments.lastIndex { ($0.header?.baseTime ?? time) <= time } ?? 0
        return RecordCursor(reader: self, firstSegment: start, start: .time(time), mode: mode)
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
        return report
    }
}
