import Dispatch
import Foundation
import Locking

/// Appends records to a journal directory: compressed, checksummed, group-committed.
///
/// Thread-safe: any number of threads may append; each record gets the next sequence number in
/// the order the appends took the writer's lock. `append` never waits for the disk; ``flush()``
/// (or ``sync()``) returns once everything appended before it is durable.
///
/// With a group-commit thread (``GroupCommit/maxDelay`` set), an append only encodes its record
/// into the open frame's buffer; that thread compresses each commit group into its block,
/// writes it and syncs it. Without one, the appending thread does all of it, in call order.
///
/// Opening an existing journal recovers it: a torn tail is truncated, what is kept is made
/// durable, and appends continue; corruption at the end of the last segment is left in place
/// and reported in ``recovery``. When the disk refuses that repair (it is full, or its syncs
/// fail), the writer opens stopped: every append throws, and ``recovery`` says why.
public final class JournalWriter: Sendable {
    /// The journal's directory.
    public let directory: String
    /// What opening the directory found and repaired.
    public let recovery: RecoveryReport
    /// The id every segment of this journal carries.
    public let journalID: UUID

    /// The state, the compressors and the writing the group-commit thread shares
    /// (``WriterCore``), the one place they are kept.
    private let core: WriterCore
    private var committer: Locked<CommitSink> { core.committer }
    private var helper: Locked<CommitSink> { core.helper }
    private var state: Locked<WriterState> { core.state }
    private let groupCommit: GroupCommitThread?
    /// The state's ``WriterState/attention``, read without the lock.
    private let attention: AttentionFlag
    /// The directory's inter-process lock, held until ``close()`` (``JournalOptions/locksDirectory``).
    private let lock: JournalLock?

    /// Opens (creating if needed) the journal in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the journal's directory; created (mode 0700) if missing.
    ///   - options: segment, frame and group-commit bounds, storage, producer (validated first).
    ///   - snapshot: called, under the writer's lock and on the appending thread, when a
    ///     segment begins inside `append` (``Rotation/automatic``); it returns the state as of every
    ///     record before `request.sequence`. It must not call back into the writer. With
    ///     ``Rotation/onRequest`` it may be nil: ``rotateIfNeeded(time:snapshotIsLarge:snapshot:)`` supplies snapshots.
    public init(
        directory: String,
        options: JournalOptions = JournalOptions(),
        snapshot: (@Sendable (SnapshotRequest) -> [UInt8])?
    ) throws {
        let options = try options.validated()
        if options.locksDirectory {
            // Taken before recovery, which may cut a torn tail: only the lock's holder writes.
            try options.storage.createDirectory(at: directory)
            lock = try options.storage.lockDirectory(at: directory)
        } else {
            lock = nil
        }
        let (outcome, durable) = try WriterRecovery.open(directory: directory, options: options)
        let frameCapacity = options.frameBytes + options.maxGroupBytes + options.maxRecordBytes + 4 * Varint.maxLength
            + SegmentFormat.blockCheckBytes
        let committer = Locked(CommitSink(compressor: try FrameCompressor(mode: options.blockMode, implementation: options.lz4Implementation), staging: StagingBuffer(capacity: options.maxGroupBytes + 4096)))
        let helper = Locked(CommitSink(compressor: try FrameCompressor(mode: options.blockMode, implementation: options.lz4Implementation), staging: StagingBuffer(capacity: options.frameBytes + 4096)))
        let last = outcome.nextSequence - 1
        let state = Locked(WriterState(
            directory: directory, options: options, journalID: outcome.journalID, snapshotProvider: snapshot,
            frame: FrameBuffer(capacity: frameCapacity),
            active: outcome.active, pendingSegmentStart: outcome.pendingSegmentStart, retained: outcome.retained,
            nextSequence: outcome.nextSequence, writtenSequence: last, durableSequence: durable))
        attention = state.withLock { state in
            // A journal whose repair the disk refused is not written to: stopped from the start.
            state.failure = outcome.report.repairFailure
            state.publishAttention()
            return state.attention
        }
        core = WriterCore(committer: committer, helper: helper, state: state,
                          commitChunkBytes: max(options.maxGroupBytes, options.maxStagedBytes / 4),
                          commitRoundBytes: options.maxStagedBytes)
        self.directory = directory
        self.recovery = outcome.report
        self.journalID = outcome.journalID
        groupCommit = options.groupCommit.maxDelay == nil ? nil : GroupCommitThread()
        groupCommit?.start(core: core)
    }

    deinit {
        try? close()
    }

    /// Whether this writer holds its directory's ``JournalLock`` (``JournalOptions/locksDirectory``,
    /// on a storage that locks); ``close()`` gives it back.
    public var locksDirectory: Bool { lock != nil }

    /// The sequence number of the last record appended, or 0 when the journal is empty.
    public var lastSequence: UInt64 { state.withLock { $0.lastSequence } }

    /// Every record up to this sequence number is durable.
    public var durableSequence: UInt64 { state.withLock { $0.durableSequence } }

    /// The records this writer gave sequence numbers to after `sequence` (nil when none): once
    /// it failed, and the journal reopened holds records through `sequence` only, the records
    /// that were lost: their range, the first one's time, and how many were snapshots. The
    /// time is known while the records are not durable (the writer keeps the first record of
    /// each commit group until its group is).
    public func recordsHandedOut(after sequence: UInt64) -> HandedOutRecords? {
        state.withLock { $0.handedOut(after: sequence) }
    }

    /// Bytes of encoded records not yet written (tests check the staging bound with it).
    var stagedBytes: Int { state.withLock { $0.stagedBytes } }

    /// The last sequence handed to the file system.
    var writtenSequence: UInt64 { state.withLock { $0.writtenSequence } }

    /// Frames appenders compressed themselves, at the staging bound (tests look).
    var framesCompressedByAppenders: Int { state.withLock { $0.framesCompressedByAppenders } }

    /// Appends a record and returns its sequence number. Kinds below
    /// ``SegmentFormat/firstApplicationKind`` are reserved for the journal.
    ///
    /// Throws ``JournalError/recordTooLarge(bytes:limit:)`` without changing anything, or, after
    /// a failed write, ``JournalError/failed(_:)`` for this and every later append.
    @discardableResult
    public func append(kind: UInt32, timestamp: JournalTime, payload: UnsafeRawBufferPointer) throws -> UInt64 {
        try appending { state, now in try state.append(kind: kind, timestamp: timestamp, payload: payload, now: now) }
    }

    /// Appends records that a crash must never split: they land in one commit group, so after
    /// a crash either all of them are in the journal or none is. Returns the last one's
    /// sequence number (the others precede it, in order). Same errors as a single append.
    @discardableResult
    public func appendBundle(_ records: [(kind: UInt32, payload: [UInt8])], timestamp: JournalTime) throws -> UInt64 {
        try appendBundle(RecordBundle(records), timestamp: timestamp)
    }

    /// Appends the records of `bundle` the same way (one commit group, all or none after a
    /// crash, the same errors), copying each payload once, into the open frame.
    @discardableResult
    public func appendBundle(_ bundle: RecordBundle, timestamp: JournalTime) throws -> UInt64 {
        try bundle.withBorrowedRecords { records in
            try appending { state, now in try state.appendBundle(records, timestamp: timestamp, now: now) }
        }
    }

    /// Runs one append, then what every append owes: without a group-commit thread, writing
    /// (and, durable, syncing) the groups it cut, on this thread; with one, a wake for that
    /// thread when it must act, and the groups' compression when staging is past its bound.
    private func appending(_ body: (inout WriterState, () -> UInt64?) throws -> UInt64) throws -> UInt64 {
        guard let groupCommit else {
            let (sequence, ready) = try exclusively { state in
                let writtenBefore = state.writtenSequence
                let sequence = try body(&state) { nil }
                if state.writtenSequence > writtenBefore && state.options.groupCommit.synchronizesEachGroup {
                    try state.synchronizeInline()
                }
                return (sequence, state.takeReady())
            }
            core.complete(ready)
            return sequence
        }
        let now: () -> UInt64? = { DispatchTime.now().uptimeNanoseconds }
        // The fast path: encode only; sealed groups are queued for the group-commit thread.
        let fast = try state.withLock { state -> (sequence: UInt64, ready: [WriterState.Ready], wake: Bool, overBound: Bool)? in
            if state.appendBeginsSegment { return nil }
            let pendingBefore = state.pendingCount
            let queuedBefore = state.queue.count
            let sequence = try body(&state, now)
            let wake = state.flusherMustWake(pendingBefore: pendingBefore, queuedBefore: queuedBefore, wroteGroup: false)
            return (sequence, state.takeReady(), wake, state.stagedBytes >= state.options.maxStagedBytes)
        }
        if let fast {
            if fast.wake { groupCommit.wake() }
            core.complete(fast.ready)
            if fast.overBound, try !compressWholeFrame() {
                // The thread fell behind and no whole frame is left for the second compressor.
                // Waiting for the committer lets the thread finish the chunk it is compressing;
                // if staging is still past the bound then (the thread is syncing or asleep),
                // this thread compresses and writes a chunk itself.
                let (failure, wrote) = core.commitQueued(maxBytes: core.commitChunkBytes) { state in state.stagedBytes >= state.options.maxStagedBytes }
                if let failure { throw failure }
                if wrote > 0 && state.withLock({ $0.flusherMustWake(pendingBefore: 0, queuedBefore: $0.queue.count, wroteGroup: true) }) {
                    groupCommit.wake()
                }
            }
            return fast.sequence
        }
        // A segment begins: with the committer, so the old segment's groups are written first.
        let (sequence, ready, wake) = try exclusively { state in
            let pendingBefore = state.pendingCount
            let writtenBefore = state.writtenSequence
            let sequence = try body(&state, now)
            let wake = state.flusherMustWake(pendingBefore: pendingBefore, queuedBefore: 0,
                                             wroteGroup: state.writtenSequence > writtenBefore)
            return (sequence, state.takeReady(), wake)
        }
        if wake { groupCommit.wake() }
        core.complete(ready)
        return sequence
    }

    /// Runs `body` holding the second compressor (so no frame is being compressed by an
    /// appender), the committer, then the state: the groups queued so far are written first,
    /// and every group `body` cuts is compressed and written at once, on this thread.
    ///
    /// When a write or sync in it fails, the waiters the failure answered are completed (after
    /// the locks are released) before the error is thrown: nothing else would take them.
    private func exclusively<Value>(_ body: (inout WriterState) throws -> Value) throws -> Value {
        let outcome = helper.withLock { _ in
            committer.withLock { committer in
                state.withLock { state -> Result<Value, any Error> in
                    state.committer = committer
                    defer { state.committer = nil }
                    do {
                        try state.writeQueuedIfCommitting()
                        return .success(try body(&state))
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        switch outcome {
        case .success(let value):
            return value
        case .failure(let error):
            core.complete(state.withLock { $0.takeReady() })
            throw error
        }
    }

    /// At the staging bound: compresses the newest whole frame still queued with the second
    /// compressor, on this thread, while the group-commit thread compresses older ones (frames
    /// are independent: each has its own dictionary). Returns false when there was none.
    private func compressWholeFrame() throws -> Bool {
        let wake = try helper.withLock { helper -> Bool? in
            guard let (groups, frame) = state.withLock({ $0.failure == nil ? $0.claimCompleteFrame() : nil }) else { return nil }
            do {
                let compressed = try helper.compressFrame(groups)
                return state.withLock { state in
                    state.resolveClaim(compressed, freeing: frame)
                    return state.flusherMustWake(pendingBefore: 0, queuedBefore: state.queue.count - 1, wroteGroup: false)
                }
            } catch {
                throw core.failed(error)
            }
        }
        guard let wake else { return false }
        if wake { groupCommit?.wake() }
        return true
    }

    /// Appends a record; see ``append(kind:timestamp:payload:)-(_,_,UnsafeRawBufferPointer)``.
    @discardableResult
    public func append(kind: UInt32, timestamp: JournalTime, payload: some Collection<UInt8>) throws -> UInt64 {
        if let sequence = try payload.withContiguousStorageIfAvailable({ buffer in
            try append(kind: kind, timestamp: timestamp, payload: UnsafeRawBufferPointer(buffer))
        }) {
            return sequence
        }
        return try Array(payload).withUnsafeBytes { try append(kind: kind, timestamp: timestamp, payload: $0) }
    }

    /// Returns once every record appended before the call is durable; returns that sequence.
    @discardableResult
    public func flush() async throws -> UInt64 {
        try await withCheckedThrowingContinuation { continuation in
            flush { continuation.resume(with: $0) }
        }
    }

    /// Begins a new segment now if one is due (the current one passed its size bound, or the
    /// journal has none yet), writing the snapshot `provider` returns as its first record, stamped
    /// `time`. Returns whether it did. `provider` runs on this thread, under the writer's lock.
    ///
    /// `snapshotIsLarge` lets the owner put a rotation off while its snapshot would be costly
    /// (in the middle of a burst, say): it is asked only when a rotation is due because the
    /// segment passed its size bound, and while it says true the segment goes on, up to twice
    /// its bounds (``JournalOptions/segmentBytes``, ``JournalOptions/segmentRecords``), where the
    /// segment begins whatever it says. A new journal's first segment never waits.
    @discardableResult
    public func rotateIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool = { false },
                               snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> Bool {
        // Most calls find nothing due: they need not take the lock (the flag, raised by every
        // change that makes a segment due or the writer unusable, says so), nor wait for the
        // committer.
        guard attention.isRaised else { return false }
        let (due, mayWait) = try state.withLock { state in
            try state.checkUsable()
            return state.segmentIsDue ? (true, state.rotationMayWait) : (false, false)
        }
        guard due, !(mayWait && snapshotIsLarge()) else { return false }
        return try withSegmentWork { state, now in
            try state.rotateIfNeeded(time: time, now: now, snapshot: provider)
        }
    }

    /// Begins a new segment now, whatever the size of the current one, with the snapshot
    /// `provider` returns as its first record (e.g. after records could not be written for a
    /// while, so that what follows replays on its own). `provider` runs on this thread, under
    /// the writer's lock.
    public func beginSegment(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        try beginSegment(time: time, skippingThrough: nil, snapshot: provider)
    }

    /// Begins a new segment now, as ``beginSegment(time:snapshot:)``, past `skippingThrough`:
    /// the last sequence number an earlier writer of this journal gave out (``lastSequence`` of
    /// a writer that failed). When this journal holds fewer records, the segment begins past
    /// it, so no number is ever given to two records; its header says where the journal's
    /// records stop (``SegmentHeader/continuesFrom``), and readers step over the numbers
    /// between (docs/FORMAT.md).
    public func beginSegment(time: JournalTime, skippingThrough: UInt64?, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        let threaded = groupCommit != nil
        let (ready, wake) = try exclusively { state in
            let pendingBefore = state.pendingCount
            let writtenBefore = state.writtenSequence
            try state.checkUsable()
            try state.checkSequenceAvailable()
            let reason = state.pendingSegmentStart ?? (!state.hasActiveSegment ? .newJournal : .requested)
            try state.startSegment(time: time, reason: reason, now: { threaded ? DispatchTime.now().uptimeNanoseconds : nil },
                                   skippingThrough: skippingThrough, snapshot: provider)
            let wake = threaded && state.flusherMustWake(pendingBefore: pendingBefore, queuedBefore: 0,
                                                         wroteGroup: state.writtenSequence > writtenBefore)
            return (state.takeReady(), wake)
        }
        if wake { groupCommit?.wake() }
        core.complete(ready)
    }

    /// Deletes every segment whose records are all older than `maxAge` at `time` (the journal's
    /// own clock: its records' times), whatever the byte budget. When the segment being written
    /// began more than half of `maxAge` before `time`, a new segment begins first, with the
    /// snapshot `provider` returns, so the old one can age out later: no record younger than
    /// `maxAge` is ever deleted, and none lives much longer. Returns how many segments it
    /// deleted. `provider` runs on this thread, under the writer's lock.
    @discardableResult
    public func removeSegments(olderThan maxAge: Duration, at time: JournalTime,
                               snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> Int {
        try withSegmentWork { state, now in
            try state.applyAgeRetention(time: time, maxAge: maxAge, now: now, snapshot: provider)
        }
    }

    /// Erases the journal: begins a new segment whose first record is the snapshot `provider`
    /// returns, then deletes every other segment and its index. Records appended before are
    /// gone from the disk (those not yet written are written first, then deleted with the rest);
    /// numbering goes on after them, so a reader sees a journal that begins with that snapshot.
    /// `provider` runs on this thread, under the writer's lock.
    public func eraseAll(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> JournalErasure {
        try withSegmentWork { state, now in
            try state.eraseAll(time: time, now: now, snapshot: provider)
        }
    }

    /// Runs `body` with the committer lent (segments may begin and end), then completes what
    /// became durable and wakes the group-commit thread when it must write.
    private func withSegmentWork<Value>(_ body: (inout WriterState, () -> UInt64?) throws -> Value) throws -> Value {
        let threaded = groupCommit != nil
        let (value, ready, wake) = try exclusively { state in
            let pendingBefore = state.pendingCount
            let writtenBefore = state.writtenSequence
            let value = try body(&state, { threaded ? DispatchTime.now().uptimeNanoseconds : nil })
            let wake = threaded && state.flusherMustWake(pendingBefore: pendingBefore, queuedBefore: 0,
                                                         wroteGroup: state.writtenSequence > writtenBefore)
            return (value, state.takeReady(), wake)
        }
        if wake { groupCommit?.wake() }
        core.complete(ready)
        return value
    }

    /// Calls `completion` once every record appended before the call is durable, on the
    /// group-commit thread or, without one, on the calling thread before returning.
    public func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void) {
        let ready = state.withLock { state in
            state.addWaiter(.init(target: state.lastSequence, completion: completion))
            state.flushTarget = max(state.flushTarget, state.lastSequence)
            if groupCommit != nil { state.flusher = .running }
            return state.takeReady()
        }
        core.complete(ready)
        if let groupCommit {
            groupCommit.wake()
        } else {
            // A failed sync fails the writer, which completes this waiter with the failure.
            _ = try? sync()
        }
    }

    /// Calls `completion` once record `sequence` is durable, without hurrying it: it becomes
    /// durable when its group is cut and synchronized (by size, by the time bound, or by a flush).
    public func whenDurable(through sequence: UInt64, completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void) {
        let ready = state.withLock { state in
            state.addWaiter(.init(target: sequence, completion: completion))
            return state.takeReady()
        }
        core.complete(ready)
    }

    /// Returns once record `sequence` is durable, without hurrying it (see ``whenDurable(through:completion:)``).
    @discardableResult
    public func whenDurable(through sequence: UInt64) async throws -> UInt64 {
        try await withCheckedThrowingContinuation { continuation in
            whenDurable(through: sequence) { continuation.resume(with: $0) }
        }
    }

    /// Writes the pending group and makes everything appended so far durable, on this thread.
    @discardableResult
    public func sync() throws -> UInt64 {
        let (file, target) = try exclusively { state -> ((any WritableFile)?, UInt64) in
            try state.checkUsable()
            try state.cutGroup()
            return (state.active?.file, state.writtenSequence)
        }
        try core.synchronize(file, through: target)
        return target
    }

    /// Writes what is pending, closes the open frame, makes everything durable and stops the
    /// group-commit thread, then gives back the directory's lock (held or not, after a failure
    /// too). Later appends throw ``JournalError/closed``. Calling it again does nothing.
    public func close() throws {
        defer { lock?.release() }
        groupCommit?.stop()
        let closing = try exclusively { state -> ((any WritableFile)?, UInt64)? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            if state.failure != nil { return nil }
            try state.cutGroup()
            try state.endFrameIfOpen()
            return (state.active?.file, state.writtenSequence)
        }
        if let (file, target) = closing { try core.synchronize(file, through: target) }
    }
}

extension WriterState {
    /// Durable-each-group without a group-commit thread: sync on the appending thread.
    mutating func synchronizeInline() throws {
        guard writtenSequence > durableSequence else { return }
        try synchronizeActiveFile()
    }
}
