import Foundation

/// Opens a journal directory for appending: finds the last segment, scans it from its last
/// sync point, truncates a torn tail, makes what it keeps durable, and decides where the next
/// record goes.
///
/// What it keeps is synchronized (the last segment's file, then the directory) before the
/// writer answers anything: a tail that an earlier writer wrote but never made durable (it
/// failed, or its process ended during a disk outage) is durable from then on. When the disk
/// refuses a repair (a truncation, the end mark, a sync: it is full or failing), nothing is
/// trusted: the writer opens stopped (``RecoveryReport/repairFailure``), every append throws,
/// and a writer opened once the disk works repairs the journal.
enum WriterRecovery {
    struct Outcome {
        var journalID: UUID
        var active: WriterState.ActiveSegment?
        var pendingSegmentStart: SnapshotRequest.Reason?
        var retained: [WriterState.RetainedSegment]
        var nextSequence: UInt64
        var report: RecoveryReport
        /// Every record through this one is durable.
        var durableSequence: UInt64 { nextSequence - 1 }
    }

    /// What opening found, and the last sequence known durable: everything kept, or, when a
    /// repair failed, only the segments before the last (each was made durable before the next
    /// one began).
    static func open(directory: String, options: JournalOptions) throws -> (outcome: Outcome, durableSequence: UInt64) {
        let storage = options.storage
        try storage.createDirectory(at: directory)
        let listing = try JournalDirectory(path: directory, storage: storage)
        let outcome = try open(listing: listing, directory: directory, options: options)
        guard outcome.report.repairFailure != nil, let last = listing.segments.last else {
            return (outcome, outcome.durableSequence)
        }
        return (outcome, min(outcome.durableSequence, max(last.baseSequence, 1) - 1))
    }

    private static func open(listing: JournalDirectory, directory: String, options: JournalOptions) throws -> Outcome {
        let storage = options.storage
        var report = RecoveryReport()
        report.segmentsFound = listing.segments.count
        var segments = listing.segments

        while let last = segments.last {
            let path = listing.path(of: last.name)
            let contents = try storage.contents(of: path)
            let decoder: SegmentDecoder
            do {
                decoder = try SegmentDecoder(name: last.name, contents: contents, isLastSegment: true, window: DecodeWindow())
            } catch .newerVersion(let version) {
                throw JournalError.newerFormat(path: path, found: version, supported: SegmentFormat.currentVersion)
            } catch .invalidHeader(let reason, let truncated) {
                if truncated {
                    // Created, but the crash came before its header was complete: nothing in it.
                    repair(&report) {
                        try storage.removeFile(at: path)
                        try storage.removeFile(at: listing.indexPath(of: last))
                        try storage.synchronizeDirectory(at: directory)
                    }
                    if report.repairFailure == nil { report.removedIncompleteSegments.append(last.name) }
                    segments.removeLast()
                    continue
                }
                let damage = Damage(kind: .corruption, segment: last.name, offset: 0, sequence: last.baseSequence, reason: reason)
                report.corruption = damage
                repair(&report) { try makeDurable(path, in: directory, storage: storage) }
                let resume = resumeSequence(after: contents.bytes, from: 0, base: last.baseSequence,
                                            maxRecordsPerFrame: options.maxRecordsPerFrame)
                return Outcome(
                    journalID: try journalID(of: segments.dropLast(), listing: listing, storage: storage) ?? options.journalID ?? UUID(),
                    active: nil, pendingSegmentStart: .resumeAfterCorruption,
                    retained: try retainedSizes(segments, listing: listing, storage: storage),
                    nextSequence: resume, report: report)
            }
            return try recover(decoder: decoder, entry: last, contents: contents, segments: segments,
                               listing: listing, options: options, report: report)
        }
        return Outcome(journalID: options.journalID ?? UUID(), active: nil, pendingSegmentStart: .newJournal,
                       retained: [], nextSequence: 1, report: report)
    }

    private static func recover(
        decoder initial: SegmentDecoder, entry: JournalDirectory.Entry, contents: any FileContents,
        segments: [JournalDirectory.Entry], listing: JournalDirectory, options: JournalOptions, report initialReport: RecoveryReport
    ) throws -> Outcome {
        var decoder = initial
        var report = initialReport
        let storage = options.storage
        let path = listing.path(of: entry.name)
        let header = decoder.header

        // Start from the last sync point the index names, when the data confirms it.
        var syncPoints: [IndexEntry] = []
        if let indexContents = try? storage.contents(of: listing.indexPath(of: entry)) {
            let entries = IndexFile.decode(indexContents.bytes, baseSequence: entry.baseSequence)
            if let lastGood = entries.lastIndex(where: { SyncMarker.decode(from: contents.bytes, at: $0.offset)?.firstSequence == $0.sequence }),
               decoder.reposition(toSyncMarkerAt: entries[lastGood].offset) {
                syncPoints = Array(entries[..<lastGood])
            }
        }

        var lastSequence: UInt64? = nil
        var outcome: SegmentDecoder.Step
        scan: while true {
            outcome = decoder.next()
            switch outcome {
            case .record(let record): lastSequence = record.sequence
            case .syncPoint(let offset, let sequence, let time): syncPoints.append(IndexEntry(offset: offset, sequence: sequence, time: time))
            case .end, .damage: break scan
            }
        }
        report.lastSequence = lastSequence ?? (decoder.nextSequence > 1 ? decoder.nextSequence - 1 : nil)

        if case .damage(let damage) = outcome, damage.kind == .corruption {
            report.corruption = damage
            repair(&report) { try makeDurable(path, in: listing.path, storage: storage) }
            let resume = resumeSequence(after: contents.bytes, from: damage.offset, base: decoder.nextSequence,
                                        maxRecordsPerFrame: header.maxRecordsPerFrame)
            return Outcome(journalID: header.journalID, active: nil, pendingSegmentStart: .resumeAfterCorruption,
                           retained: try retainedSizes(segments, listing: listing, storage: storage),
                           nextSequence: max(resume, decoder.nextSequence), report: report)
        }

        let file = try storage.openForAppending(at: path)
        let endsInsideFrame: Bool
        switch outcome {
        case .end(let openFrame): endsInsideFrame = openFrame
        // The scan stops only at an end or damage; after damage the decoder knows where its
        // valid bytes end.
        case .damage, .record, .syncPoint: endsInsideFrame = decoder.validEndIsInsideFrame
        }
        if case .damage(let damage) = outcome {
            report.tornTail = damage
            syncPoints.removeAll { $0.offset >= decoder.validEnd }
        }
        var truncatedBytes = 0
        repair(&report) {
            if case .damage = outcome {
                let cut = file.size - decoder.validEnd
                try file.truncate(to: decoder.validEnd)
                truncatedBytes = cut
            }
            if endsInsideFrame {
                // The compressor's dictionary is gone; close the frame so the next group opens a new one.
                // A frame that declares a content checksum needs its 4 bytes after the end mark, or a
                // reader would take the next sync marker's first bytes for them. Readers do not check
                // it (docs/FORMAT.md), and recovery cannot compute it without the whole frame's
                // content, so it is written as zero (found by fuzz-journal).
                let trailer = SegmentFormat.endMark + (decoder.validEndFrameHasContentChecksum ? [0, 0, 0, 0] : [])
                try trailer.withUnsafeBytes { try file.append($0) }
            }
            // Kept, so made durable: whatever wrote these bytes may never have synchronized them.
            try file.synchronize()
            try storage.synchronizeDirectory(at: listing.path)
        }
        report.truncatedBytes = truncatedBytes

        // Sequence 0 stands for "no record": a segment holding only its header, based at 0, cannot
        // take its snapshot as record 0, so it is replaced like one whose limits are too small.
        let limitsFit = UInt64(header.maxRecordBytes) >= UInt64(options.maxRecordBytes)
            && header.maxRecordsPerFrame >= options.maxRecordsPerFrame
        if !limitsFit || decoder.nextSequence == 0 {
            return try leave(entry, header: header, nextSequence: decoder.nextSequence, segments: segments, listing: listing,
                             storage: storage, report: report)
        }

        let index = IndexFileWriter(storage: storage, path: listing.indexPath(of: entry),
                                    baseSequence: entry.baseSequence, entries: syncPoints)
        let active = WriterState.ActiveSegment(file: file, name: entry.name, baseSequence: entry.baseSequence, index: index)
        var retained = try retainedSizes(segments.dropLast(), listing: listing, storage: storage)
        retained.append(.init(baseSequence: entry.baseSequence, bytes: file.size, baseTime: header.baseTime))
        let nextSequence = decoder.nextSequence
        let start: SnapshotRequest.Reason? =
            nextSequence == header.baseSequence ? .missingSnapshot
            : file.size >= options.segmentBytes || options.segmentRecords.map({ nextSequence &- entry.baseSequence >= UInt64($0) }) == true
                ? .rotation : nil
        return Outcome(journalID: header.journalID, active: active, pendingSegmentStart: start,
                       retained: retained, nextSequence: nextSequence, report: report)
    }

    /// Leaves the last segment as it is when its header allows smaller records or frames than
    /// this writer writes (its options grew since the segment began): readers hold a segment to
    /// its header's limits, so appends continue in a new segment that states the writer's. A
    /// segment holding only its header is removed instead, so the new one can take its name
    /// (numbered from 1 at least).
    private static func leave(
        _ entry: JournalDirectory.Entry, header: SegmentHeader, nextSequence: UInt64, segments: [JournalDirectory.Entry],
        listing: JournalDirectory, storage: any JournalStorage, report: RecoveryReport
    ) throws -> Outcome {
        var kept = segments
        var report = report
        if nextSequence == header.baseSequence {
            repair(&report) {
                try storage.removeFile(at: listing.path(of: entry.name))
                try storage.removeFile(at: listing.indexPath(of: entry))
                try storage.synchronizeDirectory(at: listing.path)
            }
            kept.removeLast()
        }
        return Outcome(journalID: header.journalID, active: nil, pendingSegmentStart: .limitsChanged,
                       retained: try retainedSizes(kept, listing: listing, storage: storage),
                       nextSequence: max(nextSequence, 1), report: report)
    }

    /// Runs one repair, unless an earlier one failed (the writer then opens stopped, and writes
    /// nothing more); a failure is kept in `report`.
    private static func repair(_ report: inout RecoveryReport, _ body: () throws -> Void) {
        guard report.repairFailure == nil else { return }
        do {
            try body()
        } catch {
            report.repairFailure = (error as? JournalError) ?? .failed("\(error)")
        }
    }

    /// Synchronizes a segment that is kept as it is (damaged), and the directory naming it.
    private static func makeDurable(_ path: String, in directory: String, storage: any JournalStorage) throws {
        try storage.openForAppending(at: path).synchronize()
        try storage.synchronizeDirectory(at: directory)
    }

    /// The first sequence number that cannot have been used by records lost in a damaged frame:
    /// past every valid sync marker after `from`, by the most records a frame may hold. Saturates
    /// at `UInt64.max` (a damaged name or marker can claim any sequence): the writer then has no
    /// sequence number left to give and refuses appends.
    static func resumeSequence(after bytes: UnsafeRawBufferPointer, from offset: Int, base: UInt64, maxRecordsPerFrame: UInt32) -> UInt64 {
        var highest = base
        var position = offset - 1
        while let found = TailProbe(bytes: bytes, from: position, maxBlockBytes: SegmentFormat.maxBlockBytes).nextSyncMarker() {
            highest = max(highest, found.marker.firstSequence)
            position = found.offset
        }
        let (resume, overflow) = highest.addingReportingOverflow(UInt64(maxRecordsPerFrame))
        return overflow ? .max : resume
    }

    private static func retainedSizes(
        _ segments: some Collection<JournalDirectory.Entry>, listing: JournalDirectory, storage: any JournalStorage
    ) throws -> [WriterState.RetainedSegment] {
        // Base times are read only if age retention asks (`WriterState.baseTime(ofRetained:)`).
        try segments.map { .init(baseSequence: $0.baseSequence, bytes: try storage.sizeOfFile(at: listing.path(of: $0.name)), baseTime: nil) }
    }

    private static func journalID(
        of segments: some Collection<JournalDirectory.Entry>, listing: JournalDirectory, storage: any JournalStorage
    ) throws -> UUID? {
        for entry in segments.reversed() {
            if let contents = try? storage.contents(of: listing.path(of: entry.name)),
               let (header, _) = try? SegmentHeader.decode(from: contents.bytes) {
                return header.journalID
            }
        }
        return nil
    }
}
