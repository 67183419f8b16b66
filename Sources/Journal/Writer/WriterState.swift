import Foundation

/// Everything the appending side of the writer mutates, kept behind one lock in ``JournalWriter``.
///
/// Appends encode the record straight into the open frame's ``FrameBuffer``; a commit group is
/// cut (sealed: its block check appended, queued as ``StagedWork``) when it is full, when its
/// time bound passes, or when a flush asks. Compressing sealed groups into blocks and writing
/// them is the committer's work (``CommitSink``): the group-commit thread's, outside this lock,
/// or, while ``committer`` is set, this state's own, at once, as each group is cut. Durability
/// (`fdatasync`) happens outside the lock.
struct WriterState: Sendable {
    /// The segment being appended to.
    struct ActiveSegment {
        let file: any WritableFile
        let name: String
        let baseSequence: UInt64
        let index: IndexFileWriter
    }

    /// A caller waiting for durability up to `target`.
    struct Waiter {
        let target: UInt64
        let completion: @Sendable (Result<UInt64, JournalError>) -> Void
    }

    /// A waiter and how it completes, once known (completed outside the lock).
    typealias Ready = (Waiter, Result<UInt64, JournalError>)

    /// A retained segment, oldest first, for retention accounting.
    struct RetainedSegment {
        let baseSequence: UInt64
        var bytes: Int
        /// The time of the segment's first record (its header's): known for the segments this
        /// writer made and the one it resumed; for older ones read from the header when age
        /// retention first asks (``baseTime(ofRetained:)``). Nil while unknown, or when the header
        /// cannot be read (then the segment goes by bytes only).
        var baseTime: JournalTime?
    }

    let directory: String
    let options: JournalOptions
    let journalID: UUID
    let snapshotProvider: (@Sendable (SnapshotRequest) -> [UInt8])?
    /// The committer, lent by a caller that holds its lock: groups are then compressed and
    /// written as they are cut. Nil on the appending fast path, where they are only queued.
    var committer: CommitSink?

    /// The open frame's content; the pending group is `[groupStart, frame.end)`.
    var frame: FrameBuffer
    var groupStart = 0
    /// Whether the current frame has a sealed group (its header is, or will be, written).
    var frameOpen = false
    /// Frame buffers whose end mark was written, for the next frames.
    var freeFrames: [FrameBuffer] = []
    /// Sealed work the committer has not taken yet, in order.
    var queue: [StagedWork] = []
    /// Decompressed bytes encoded but not yet written (queued or being compressed, and the
    /// pending group): what ``JournalOptions/maxStagedBytes`` bounds.
    var stagedBytes = 0
    /// Frames appenders compressed with the second compressor (tests look).
    var framesCompressedByAppenders = 0

    var active: ActiveSegment? { didSet { publishAttention() } }
    /// Why the next append must begin a new segment, if it must.
    var pendingSegmentStart: SnapshotRequest.Reason? { didSet { publishAttention() } }
    /// Raised whenever a segment is due or the writer is no longer usable: what
    /// ``JournalWriter/rotateIfNeeded(time:snapshotIsLarge:snapshot:)`` reads before it locks.
    let attention = AttentionFlag()
    var retained: [RetainedSegment]

    var nextSequence: UInt64
    /// The time of the previous record in the current frame (the base of the next time delta).
    var frameTime = JournalTime(microsecondsSince1970: 0)
    var frameRecords: UInt32 = 0
    var pendingCount = 0
    var pendingFirst: (sequence: UInt64, time: JournalTime)?
    /// When the pending group's first record arrived (monotonic ns), for the time bound.
    var pendingSince: UInt64?
    /// The last sequence handed to the file system.
    var writtenSequence: UInt64
    /// The last sequence known durable.
    var durableSequence: UInt64
    /// Every commit group cut and not yet known durable, oldest first: its first and last
    /// sequence and its first record's time. What a failed writer says of the records it gave
    /// out (``handedOut(after:)``); one entry per group, dropped once the group is durable.
    var unconfirmedGroups: [(first: UInt64, last: UInt64, time: JournalTime)] = []
    /// The most groups ``unconfirmedGroups`` holds; past it (no sync for that long, with
    /// buffered durability) the oldest half is forgotten, and their records' time with it.
    static let unconfirmedGroupLimit = 4_096
    /// The last sequence a flush asked to be made durable: the group-commit thread cuts and
    /// syncs until it is.
    var flushTarget: UInt64 = 0
    /// What the group-commit thread is doing, so appenders wake it only when it would
    /// otherwise miss work (a wake-up per group would cost a context switch each).
    var flusher = FlusherStatus.running
    var waiters: [Waiter] = []
    /// Waiters whose target became durable (or failed), to be completed outside the lock.
    var ready: [(Waiter, Result<UInt64, JournalError>)] = []
    var failure: JournalError? { didSet { publishAttention() } }
    /// Whether the options' background-failure observer heard of ``failure``.
    var failureReported = false
    var isClosed = false { didSet { publishAttention() } }

    /// Sets ``attention`` from the state (called by every change that can raise or lower it).
    func publishAttention() {
        attention.set(segmentIsDue || failure != nil || isClosed)
    }

    var lastSequence: UInt64 { nextSequence - 1 }

    // MARK: - Appending

    mutating func checkUsable() throws {
        if let failure { throw Self.stoppedError(after: failure) }
        if isClosed { throw JournalError.closed }
    }

    /// Appends one record and returns its sequence number.
    mutating func append(kind: UInt32, timestamp: JournalTime, payload: UnsafeRawBufferPointer, now: () -> UInt64?) throws -> UInt64 {
        try checkUsable()
        try checkSequenceAvailable()
        guard kind >= SegmentFormat.firstApplicationKind else { throw JournalError.reservedKind(kind) }
        try checkFits(kind: kind, payloadCount: payload.count)
        if let reason = pendingSegmentStart ?? (!hasActiveSegment ? .newJournal : nil) {
            if let provider = snapshotProvider, options.rotation == .automatic || !hasActiveSegment {
                try startSegment(time: timestamp, reason: reason, now: now, snapshot: provider)
            } else if !hasActiveSegment {
                throw JournalError.invalidOptions("no segment to append to: call rotateIfNeeded(snapshot:) first")
            }
        }
        let sequence = try encode(kind: kind, timestamp: timestamp, payload: payload, now: now)
        markRotationDueAtRecordBound()
        return sequence
    }

    /// Marks a rotation due once the active segment holds ``JournalOptions/segmentRecords``
    /// records, counted as they are encoded: counted as groups are written, the bound would lag
    /// behind by whatever the group-commit thread has not written yet (in a burst, a segment
    /// several times its bound).
    private mutating func markRotationDueAtRecordBound() {
        guard pendingSegmentStart == nil, let limit = options.segmentRecords, let base = active?.baseSequence,
              nextSequence &- base >= UInt64(limit) else { return }
        pendingSegmentStart = .rotation
    }

    /// A record takes a sequence number and must leave the next one representable, so the last,
    /// `UInt64.max`, is never given out. Only a damaged journal gets near it (recovery resumes past
    /// whatever sequence a damaged segment claims).
    func checkSequenceAvailable() throws {
        if nextSequence == .max { throw JournalError.sequenceSpaceExhausted }
    }

    /// Rejects a record that cannot fit even with the shortest time delta, before anything changes.
    private func checkFits(kind: UInt32, payloadCount: Int) throws {
        let shortest = Varint.length(of: UInt64(kind)) + 1 + payloadCount
        if shortest > options.maxRecordBytes {
            throw JournalError.recordTooLarge(bytes: shortest, limit: options.maxRecordBytes)
        }
    }

    /// Appends records that a crash must never split: all of them go into one commit group
    /// (one block), so a torn write loses the whole bundle or none of it. Returns the last
    /// record's sequence number. A bundle larger than a block can hold is appended record by
    /// record (and is then not atomic): the SDK's bundles are far smaller.
    mutating func appendBundle(_ bundle: BorrowedRecords, timestamp: JournalTime, now: () -> UInt64?) throws -> UInt64 {
        try checkUsable()
        var total = SegmentFormat.blockCheckBytes + bundle.payloads.count
        for index in 0..<bundle.count {
            let kind = bundle.kinds[index]
            guard kind >= SegmentFormat.firstApplicationKind else { throw JournalError.reservedKind(kind) }
            try checkFits(kind: kind, payloadCount: bundle.payload(index).count)
            total += 2 * Varint.maxLength + Varint.length(of: UInt64(kind))
        }
        guard bundle.count > 0 else { return lastSequence }
        // The whole bundle, and a snapshot before it, must fit below `UInt64.max`: a bundle is
        // refused whole rather than cut short.
        guard UInt64.max - nextSequence > UInt64(bundle.count) + 1 else { throw JournalError.sequenceSpaceExhausted }
        if let reason = pendingSegmentStart ?? (!hasActiveSegment ? .newJournal : nil) {
            if let provider = snapshotProvider, options.rotation == .automatic || !hasActiveSegment {
                try startSegment(time: timestamp, reason: reason, now: now, snapshot: provider)
            } else if !hasActiveSegment {
                throw JournalError.invalidOptions("no segment to append to: call rotateIfNeeded(snapshot:) first")
            }
        }
        let last: UInt64
        if total <= SegmentFormat.maxBlockBytes - SegmentFormat.windowBytes, bundle.count <= Int(options.maxRecordsPerFrame) {
            // Room for the whole bundle in the pending group, and in the frame.
            if pendingCount > 0 && (pendingBytes + total > options.maxGroupBytes
                || Int(frameRecords) + pendingCount + bundle.count > Int(options.maxRecordsPerFrame)) {
                try cutGroup()
            }
            if Int(frameRecords) + bundle.count > Int(options.maxRecordsPerFrame) { try endFrameIfOpen() }
            if frame.reserveRecord(total) == nil {
                try cutGroup()
                try endFrameIfOpen()
                frame.ensureCapacity(total)
            }
            var sequence = lastSequence
            for index in 0..<bundle.count {
                sequence = try encodeRecord(kind: bundle.kinds[index], timestamp: timestamp, payload: bundle.payload(index), now: now)
            }
            if pendingCount >= options.groupCommit.maxRecords || pendingBytes >= options.maxGroupBytes {
                try cutGroup()
            }
            last = sequence
        } else {
            var sequence = lastSequence
            for index in 0..<bundle.count {
                sequence = try encode(kind: bundle.kinds[index], timestamp: timestamp, payload: bundle.payload(index), now: now)
            }
            last = sequence
        }
        markRotationDueAtRecordBound()
        return last
    }

    private mutating func encode(kind: UInt32, timestamp: JournalTime, payload: UnsafeRawBufferPointer, now: () -> UInt64?) throws -> UInt64 {
        let upperBound = 2 * Varint.maxLength + Varint.length(of: UInt64(kind)) + payload.count
        if pendingCount > 0 && pendingBytes + upperBound > options.maxGroupBytes {
            try cutGroup()
        }
        if frame.reserveRecord(upperBound) == nil {
            try cutGroup()
            try endFrameIfOpen()
        }
        let sequence = try encodeRecord(kind: kind, timestamp: timestamp, payload: payload, now: now)
        if pendingCount >= options.groupCommit.maxRecords || pendingBytes >= options.maxGroupBytes {
            try cutGroup()
        }
        return sequence
    }

    /// Encodes one record into the pending group; the caller made room for it.
    private mutating func encodeRecord(kind: UInt32, timestamp: JournalTime, payload: UnsafeRawBufferPointer, now: () -> UInt64?) throws -> UInt64 {
        // The backstop for every path (a segment's snapshot can take the last number an append
        // checked for): nothing is written once the sequence space is spent.
        try checkSequenceAvailable()
        let upperBound = 2 * Varint.maxLength + Varint.length(of: UInt64(kind)) + payload.count
        let startsFrame = !frameOpen && pendingCount == 0
        let delta = startsFrame ? 0 : timestamp.microsecondsSince1970 &- frameTime.microsecondsSince1970
        let zigzagDelta = Varint.zigzag(delta)
        let length = Varint.length(of: UInt64(kind)) + Varint.length(of: zigzagDelta) + payload.count
        guard length <= options.maxRecordBytes else {
            throw JournalError.recordTooLarge(bytes: length, limit: options.maxRecordBytes)
        }
        guard let destination = frame.reserveRecord(upperBound) else {
            throw JournalError.failed("frame buffer too small for a record of \(length) bytes")
        }
        var written = Varint.store(UInt64(length), at: destination)
        written += Varint.store(UInt64(kind), at: destination + written)
        written += Varint.store(zigzagDelta, at: destination + written)
        if let source = payload.baseAddress, payload.count > 0 {
            (destination + written).copyMemory(from: source, byteCount: payload.count)
        }
        written += payload.count
        frame.commitRecord(written)
        stagedBytes += written

        let sequence = nextSequence
        nextSequence += 1
        frameTime = timestamp
        if pendingCount == 0 {
            pendingFirst = (sequence, timestamp)
            pendingSince = now()
        }
        pendingCount += 1
        return sequence
    }

    // MARK: - Commit groups and frames

    /// Whether the pending group has waited past the time bound at monotonic time `now`.
    func pendingGroupIsDue(now: UInt64) -> Bool {
        guard let since = pendingSince, let delay = options.groupCommit.maxDelay else { return false }
        return now &- since >= delay.nanoseconds
    }

    /// Whether the group-commit thread must cut the pending group at `now`: its time bound
    /// passed, or a flush waits for one of its records.
    func pendingGroupMustBeCut(now: UInt64) -> Bool {
        guard pendingCount > 0, let first = pendingFirst else { return false }
        return first.sequence <= flushTarget || pendingGroupIsDue(now: now)
    }

    /// Bytes of the pending group so far.
    var pendingBytes: Int { frame.end - groupStart }

    /// Cuts the pending group: appends its block check and queues it, and the frame's end
    /// after it once the frame is full. With a ``committer`` lent, writes it at once (the frame's
    /// marker and header first when the group opens a frame, the end mark after when it closes one).
    mutating func cutGroup() throws {
        guard pendingCount > 0, hasActiveSegment, let first = pendingFirst else { return }
        let opensFrame = !frameOpen
        if opensFrame { frameRecords = 0 }
        frame.appendBlockCheck(groupStart: groupStart)
        stagedBytes += SegmentFormat.blockCheckBytes
        queue.append(.group(.init(frame: frame, start: groupStart, end: frame.end, firstSequence: first.sequence,
                                  firstTime: first.time, lastSequence: lastSequence, opensFrame: opensFrame)))
        if unconfirmedGroups.count >= Self.unconfirmedGroupLimit {
            // Without a sync for that long (buffered durability), the oldest are forgotten.
            unconfirmedGroups.removeFirst(Self.unconfirmedGroupLimit / 2)
        }
        unconfirmedGroups.append((first.sequence, lastSequence, first.time))
        groupStart = frame.end
        frameOpen = true
        frameRecords += UInt32(pendingCount)
        pendingCount = 0
        pendingFirst = nil
        pendingSince = nil
        if frame.end >= options.frameBytes
            || frameRecords + UInt32(options.groupCommit.maxRecords) > options.maxRecordsPerFrame {
            closeFrame()
        }
        try writeQueuedIfCommitting()
    }

    mutating func endFrameIfOpen() throws {
        guard frameOpen else { return }
        closeFrame()
        try writeQueuedIfCommitting()
    }

    /// Queues the frame's end mark and moves the appender to a fresh frame buffer (the closed
    /// one stays in place until the committer wrote its end mark). Nothing may be pending.
    private mutating func closeFrame() {
        precondition(pendingCount == 0 && groupStart == frame.end)
        queue.append(.endFrame(frame))
        frameOpen = false
        frame = freeFrames.popLast() ?? FrameBuffer(capacity: frame.capacity)
        frame.reset()
        groupStart = 0
    }

    /// Takes the oldest queued work for the committer, with the segment it belongs to: at least
    /// one step, and no more groups than `maxBytes` of staging allows after the first.
    mutating func takeQueue(maxBytes: Int = .max) -> (work: [StagedWork], segment: ActiveSegment)? {
        guard !queue.isEmpty, let active else { return nil }
        var count = 0
        var bytes = 0
        while count < queue.count {
            if case .beingCompressed = queue[count] { break }
            bytes += queue[count].stagedBytes
            if count > 0 && bytes > maxBytes { break }
            count += 1
        }
        guard count > 0 else { return nil }
        if count == queue.count {
            defer { queue = [] }
            return (queue, active)
        }
        defer { queue.removeFirst(count) }
        return (Array(queue.prefix(count)), active)
    }

    /// Claims the newest frame whose groups and end mark are all still queued, for an appender to
    /// compress with the second compressor: its groups in order and its buffer. A placeholder
    /// stands in the queue until ``resolveClaim(_:freeing:)``.
    mutating func claimCompleteFrame() -> (groups: [StagedWork.Group], frame: FrameBuffer)? {
        var index = queue.count - 1
        while index > 0 {
            guard case .endFrame(let buffer) = queue[index] else {
                index -= 1
                continue
            }
            var groups: [StagedWork.Group] = []
            var start = index - 1
            while start >= 0, case .group(let group) = queue[start] {
                groups.append(group)
                if group.opensFrame {
                    queue.replaceSubrange(start...index, with: [.beingCompressed])
                    return (groups.reversed(), buffer)
                }
                start -= 1
            }
            index = start
        }
        return nil
    }

    /// Puts the frame an appender compressed in its placeholder's place; its buffer is free.
    mutating func resolveClaim(_ frame: StagedWork.CompressedFrame, freeing buffer: FrameBuffer) {
        guard failure == nil, let index = queue.firstIndex(where: { if case .beingCompressed = $0 { true } else { false } }) else { return }
        queue[index] = .compressedFrame(frame)
        freeFrames.append(buffer)
        framesCompressedByAppenders += 1
    }

    /// Whether the committer has queued work it can take now (none stands behind a frame being compressed).
    var committerCanTakeWork: Bool {
        guard let head = queue.first else { return false }
        if case .beingCompressed = head { return false }
        return true
    }

    /// Writes the queued work now, when a caller lent the committer.
    mutating func writeQueuedIfCommitting() throws {
        guard let committer, let (work, segment) = takeQueue() else { return }
        let written: CommitSink.Written
        do {
            written = try committer.write(work, to: segment)
        } catch {
            fail(error)
            throw error
        }
        published(written)
    }

    /// Records what the committer wrote: groups handed to the file system, staging released,
    /// frame buffers free again, and a rotation due once the segment's file is full (its bound
    /// of records is counted as records are encoded: ``markRotationDueAtRecordBound()``).
    mutating func published(_ written: CommitSink.Written) {
        guard failure == nil else { return }
        stagedBytes -= written.stagedBytes
        freeFrames += written.freedFrames
        guard let lastSequence = written.lastSequence, let active else { return }
        writtenSequence = lastSequence
        if let last = retained.indices.last { retained[last].bytes = active.file.size }
        if active.file.size >= options.segmentBytes && pendingSegmentStart == nil {
            pendingSegmentStart = .rotation
        }
    }

    // MARK: - Segments

    /// Begins the pending segment, if one is due, with the snapshot `provider` returns.
    mutating func rotateIfNeeded(time: JournalTime, now: () -> UInt64?, snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> Bool {
        try checkUsable()
        guard let reason = pendingSegmentStart ?? (!hasActiveSegment ? .newJournal : nil) else { return false }
        try checkSequenceAvailable()
        try startSegment(time: time, reason: reason, now: now, snapshot: provider)
        return true
    }

    /// Whether a segment is open for appends.
    var hasActiveSegment: Bool { active != nil }

    /// Whether a segment must begin before the next record (a rotation is due, or there is none).
    var segmentIsDue: Bool { pendingSegmentStart != nil || !hasActiveSegment }

    /// Whether the segment that is due may be put off: it is due only because the active segment
    /// passed its size bound, and that segment is still under twice its bound, in bytes and in
    /// records.
    var rotationMayWait: Bool {
        guard pendingSegmentStart == .rotation, let active else { return false }
        func twice<Bound: FixedWidthInteger>(_ bound: Bound) -> Bound {
            let (doubled, overflow) = bound.multipliedReportingOverflow(by: 2)
            return overflow ? .max : doubled
        }
        if let limit = options.segmentRecords, nextSequence &- active.baseSequence >= twice(UInt64(limit)) { return false }
        return active.file.size < twice(options.segmentBytes)
    }

    /// Whether an append now would begin a segment itself, which needs the committer.
    var appendBeginsSegment: Bool {
        segmentIsDue && snapshotProvider != nil && (options.rotation == .automatic || !hasActiveSegment)
    }

    /// Seals the active segment (if any), creates the next one and writes its snapshot record.
    /// Only with the committer lent: the old segment's groups must all be written first.
    ///
    /// With `skippingThrough` at or past the next sequence, the new segment begins after it
    /// (its header says where the journal's records stop, ``SegmentHeader/continuesFrom``):
    /// the numbers up to it were given out by a writer that failed, and are never given again.
    mutating func startSegment(time: JournalTime, reason: SnapshotRequest.Reason, now: () -> UInt64?,
                               skippingThrough skip: UInt64? = nil, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        precondition(committer != nil && queue.isEmpty, "a segment begins only with the committer lent")
        let skips = skip.map { $0 >= nextSequence } ?? false
        // The snapshot takes the base and must leave the next number representable.
        if skips, let skip, skip >= UInt64.max - 1 { throw JournalError.sequenceSpaceExhausted }
        let base = skips ? skip! + 1 : nextSequence
        let request = SnapshotRequest(sequence: base, time: time, reason: reason)
        let snapshot = provider(request)
        guard Varint.length(of: UInt64(snapshot.count)) + 2 + snapshot.count <= options.maxRecordBytes else {
            throw JournalError.recordTooLarge(bytes: snapshot.count + 2, limit: options.maxRecordBytes)
        }
        if reason != .missingSnapshot || skips {
            try sealActiveSegment()
            try createSegment(baseSequence: base, baseTime: time, continuesFrom: skips ? nextSequence : nil)
            nextSequence = base
        }
        pendingSegmentStart = nil
        _ = try snapshot.withUnsafeBytes { bytes in
            try encode(kind: SegmentFormat.snapshotKind, timestamp: time, payload: bytes, now: now)
        }
        applyRetention()
    }

    /// Writes the last group and the end mark, and makes the segment durable.
    mutating func sealActiveSegment() throws {
        guard hasActiveSegment else { return }
        try cutGroup()
        try endFrameIfOpen()
        try synchronizeActiveFile()
        active = nil
    }

    /// Syncs the active segment's file and marks everything written durable; a failed sync
    /// fails the writer.
    mutating func synchronizeActiveFile() throws {
        guard let active else { return }
        do {
            try active.file.synchronize()
        } catch {
            fail(error)
            throw error
        }
        markDurable(writtenSequence)
    }

    private mutating func createSegment(baseSequence: UInt64, baseTime: JournalTime, continuesFrom: UInt64? = nil) throws {
        let header = SegmentHeader(
            journalID: journalID, baseSequence: baseSequence, baseTime: baseTime,
            createdMonotonicNanoseconds: options.monotonicNanoseconds(),
            maxRecordsPerFrame: options.maxRecordsPerFrame, maxRecordBytes: UInt32(options.maxRecordBytes),
            producer: options.producer, continuesFrom: continuesFrom)
        let name = SegmentFormat.segmentFileName(baseSequence: baseSequence)
        let path = directory + "/" + name
        do {
            let file = try options.storage.createFile(at: path)
            try header.encoded().withUnsafeBytes { try file.append($0) }
            try file.synchronize()
            try options.storage.synchronizeDirectory(at: directory)
            let index = IndexFileWriter(
                storage: options.storage,
                path: directory + "/" + SegmentFormat.indexFileName(baseSequence: baseSequence),
                baseSequence: baseSequence)
            active = ActiveSegment(file: file, name: name, baseSequence: baseSequence, index: index)
            retained.append(RetainedSegment(baseSequence: baseSequence, bytes: file.size, baseTime: baseTime))
        } catch {
            fail(error)
            throw error
        }
    }

    /// Deletes whole old segments while the journal exceeds its retention bound.
    private mutating func applyRetention() {
        guard let limit = options.retainedBytes else { return }
        var total = retained.reduce(0) { $0 + $1.bytes }
        var count = 0
        while total > limit, count + 1 < retained.count {
            total -= retained[count].bytes
            count += 1
        }
        removeOldestSegments(count)
    }

    /// Writes what the active segment holds (a snapshot just begun) and makes it durable.
    private mutating func makeActiveSegmentDurable() throws {
        try cutGroup()
        try writeQueuedIfCommitting()
        try synchronizeActiveFile()
    }

    /// The base time of retained segment `index`, read from its header the first time it is
    /// asked for (a journal reopened with old segments), then kept.
    private mutating func baseTime(ofRetained index: Int) -> JournalTime? {
        if let known = retained[index].baseTime { return known }
        let path = directory + "/" + SegmentFormat.segmentFileName(baseSequence: retained[index].baseSequence)
        guard let contents = try? options.storage.contents(of: path),
              let (header, _) = try? SegmentHeader.decode(from: contents.bytes) else { return nil }
        retained[index].baseTime = header.baseTime
        return header.baseTime
    }

    /// Deletes the `count` oldest retained segments and their index files, each tried twice.
    /// A segment whose file could not be deleted stays retained (the next retention or erasure
    /// tries it again; a reader still reads it) and is counted in what is returned.
    @discardableResult
    private mutating func removeOldestSegments(_ count: Int) -> SegmentRemoval {
        var removal = SegmentRemoval()
        guard count > 0 else { return removal }
        var kept: [RetainedSegment] = []
        for oldest in retained.prefix(count) {
            let segment = directory + "/" + SegmentFormat.segmentFileName(baseSequence: oldest.baseSequence)
            if let failure = removeFileTwice(segment) {
                kept.append(oldest)
                removal.left(oldest.bytes, because: failure)
                continue
            }
            removal.deleted(oldest.bytes)
            // An index is a cache: one left behind is rebuilt or ignored, never read as records.
            _ = removeFileTwice(directory + "/" + SegmentFormat.indexFileName(baseSequence: oldest.baseSequence))
        }
        retained.replaceSubrange(0..<count, with: kept)
        if let failure = removeDirectorySyncFailure() { removal.syncFailure = failure }
        return removal
    }

    /// Removes the file at `path`, trying once more if the first attempt fails (a file already
    /// gone is removed, ``JournalStorage/removeFile(at:)``). Nil when removed; the last error
    /// otherwise.
    private func removeFileTwice(_ path: String) -> String? {
        var failure: String?
        for _ in 0..<2 {
            do {
                try options.storage.removeFile(at: path)
                return nil
            } catch {
                failure = "\(error)"
            }
        }
        return failure
    }

    /// Makes the directory's deletions durable; nil when it did, the error otherwise.
    private func removeDirectorySyncFailure() -> String? {
        do {
            try options.storage.synchronizeDirectory(at: directory)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Deletes every segment whose records all precede `cutoff`: a segment's records end before
    /// the next one's first record. When the segment being written began more than half of
    /// `maxAge` before `time`, a new one begins first (with the snapshot `provider` returns),
    /// so that its records can age out in turn; no record younger than `maxAge` is deleted.
    mutating func applyAgeRetention(time: JournalTime, maxAge: Duration, now: () -> UInt64?,
                                    snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> Int {
        try checkUsable()
        let ageMicroseconds = Int64(clamping: maxAge.nanoseconds / 1_000)
        let cutoff = JournalTime(microsecondsSince1970: time.microsecondsSince1970 &- ageMicroseconds)
        if let current = retained.last, let began = current.baseTime, hasActiveSegment,
           began.microsecondsSince1970 < time.microsecondsSince1970 &- ageMicroseconds / 2 {
            try checkSequenceAvailable()
            try startSegment(time: time, reason: .ageLimit, now: now, snapshot: provider)
            try makeActiveSegmentDurable()
        }
        var expired = 0
        while expired + 1 < retained.count, let nextBegan = baseTime(ofRetained: expired + 1), nextBegan <= cutoff {
            expired += 1
        }
        removeOldestSegments(expired)
        return expired
    }

    /// Begins a new segment (with the snapshot `provider` returns) and deletes every other one:
    /// what the journal held before is gone, and numbering goes on after it.
    mutating func eraseAll(time: JournalTime, now: () -> UInt64?, snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> JournalErasure {
        try checkUsable()
        try checkSequenceAvailable()
        let firstSequence = retained.first?.baseSequence ?? nextSequence
        let lastSequence = nextSequence &- 1
        try startSegment(time: time, reason: .erasure, now: now, snapshot: provider)
        // The snapshot is durable before anything is deleted: a power loss in between leaves
        // the old records or the new snapshot, never neither.
        try makeActiveSegmentDurable()
        // Counted once the old segment is sealed: what was still staged is in its size now.
        let removal = removeOldestSegments(retained.count - 1)
        var erasure = JournalErasure(firstSequence: firstSequence, lastSequence: lastSequence,
                                     segments: removal.segmentsDeleted, bytes: removal.bytesDeleted)
        erasure.segmentsLeft = removal.segmentsLeft
        erasure.bytesLeft = removal.bytesLeft
        erasure.failure = removal.failure ?? removal.syncFailure.map { "the deletions may not be durable: \($0)" }
        return erasure
    }

    // MARK: - Durability

    /// The records this writer gave sequence numbers to after `sequence`, if any: their range,
    /// the first one's time (its group's first record's, when `sequence` ends inside a group),
    /// and how many are snapshots. Only the active segment's snapshot can be among them: every
    /// earlier segment was made durable before the next one began.
    func handedOut(after sequence: UInt64) -> HandedOutRecords? {
        guard sequence < lastSequence else { return nil }
        let first = sequence + 1
        let time: JournalTime?
        if let pending = pendingFirst, pendingCount > 0, pending.sequence <= first {
            time = pending.time
        } else if let group = unconfirmedGroups.last(where: { $0.first <= first }), first <= group.last {
            time = group.time
        } else {
            time = nil
        }
        let snapshots = active.map { (first...lastSequence).contains($0.baseSequence) ? 1 : 0 } ?? 0
        return HandedOutRecords(sequences: first...lastSequence, firstTime: time, snapshots: snapshots)
    }

    mutating func addWaiter(_ waiter: Waiter) {
        if let failure {
            ready.append((waiter, .failure(Self.stoppedError(after: failure))))
        } else if durableSequence >= waiter.target {
            ready.append((waiter, .success(durableSequence)))
        } else {
            waiters.append(waiter)
        }
    }

    mutating func markDurable(_ sequence: UInt64) {
        guard sequence > durableSequence else { return }
        durableSequence = sequence
        if let stillOpen = unconfirmedGroups.firstIndex(where: { $0.last > sequence }) {
            unconfirmedGroups.removeFirst(stillOpen)
        } else {
            unconfirmedGroups.removeAll(keepingCapacity: true)
        }
        var stillWaiting: [Waiter] = []
        for waiter in waiters {
            if waiter.target <= sequence { ready.append((waiter, .success(sequence))) } else { stillWaiting.append(waiter) }
        }
        waiters = stillWaiting
    }

    /// Stops the writer for good after a failed write or sync; every waiter fails.
    mutating func fail(_ error: Error) {
        guard failure == nil else { return }
        let reason = (error as? JournalError) ?? .failed("\(error)")
        failure = reason
        frame.truncate(to: groupStart)
        queue = []
        stagedBytes = 0
        for waiter in waiters { ready.append((waiter, .failure(Self.stoppedError(after: reason)))) }
        waiters = []
    }

    /// What an append or a durability wait is told once the writer has stopped on `failure`:
    /// ``JournalError/failed(_:)`` with the failure as its reason, said once (a failure that
    /// already is one is not wrapped again).
    static func stoppedError(after failure: JournalError) -> JournalError {
        if case .failed = failure { return failure }
        return .failed(failure.description)
    }

    /// Whether the group-commit thread sleeps through work it must do: a new group's time bound
    /// to start, a sealed group to compress and write, or a written group to sync. Marks it
    /// running when so (the caller wakes it).
    mutating func flusherMustWake(pendingBefore: Int, queuedBefore: Int, wroteGroup: Bool) -> Bool {
        let startedGroup = pendingBefore == 0 && pendingCount > 0
        let wake = (startedGroup && flusher == .sleepingUntilWoken)
            || (queue.count > queuedBefore && flusher != .running)
            || (wroteGroup && options.groupCommit.synchronizesEachGroup && flusher != .running)
        if wake { flusher = .running }
        return wake
    }

    mutating func takeReady() -> [(Waiter, Result<UInt64, JournalError>)] {
        defer { ready = [] }
        return ready
    }
}

/// The group-commit thread's state, as last published under the writer's lock.
enum FlusherStatus {
    /// Doing a round (or about to): it will see any new work before it sleeps.
    case running
    /// Asleep until the pending group's time bound.
    case sleepingUntilDeadline
    /// Asleep until woken: nothing was pending or unsynced.
    case sleepingUntilWoken
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
