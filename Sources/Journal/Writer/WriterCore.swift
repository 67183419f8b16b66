import Dispatch
import Locking

/// What a writer's appenders and its group-commit thread share: the state, the two
/// compressors, and the writing, syncing and failing both do.
///
/// The group-commit thread holds the core, never the ``JournalWriter``: the writer's deinit
/// closes it, which stops the thread, so the thread needs no reference to the writer at all.
/// Not even weakly: a weak reference gives its object a side table, which sends every retain
/// and release of the writer (two of each per SDK input) through the runtime's slow path.
final class WriterCore: Sendable {
    /// Compressing and writing blocks. Taken before `state`, never while holding it.
    let committer: Locked<CommitSink>
    /// The second compressor: an appender at the staging bound compresses a later whole frame
    /// with it while the group-commit thread compresses earlier ones. Taken before `committer`.
    let helper: Locked<CommitSink>
    let state: Locked<WriterState>
    /// How much staging one turn with the committer takes: small enough that an appender
    /// waiting at the staging bound is let go soon, large enough to write in few calls.
    let commitChunkBytes: Int
    /// What the group-commit thread compresses and writes before each sync.
    let commitRoundBytes: Int

    init(committer: Locked<CommitSink>, helper: Locked<CommitSink>, state: Locked<WriterState>, commitChunkBytes: Int,
         commitRoundBytes: Int) {
        self.committer = committer
        self.helper = helper
        self.state = state
        self.commitChunkBytes = commitChunkBytes
        self.commitRoundBytes = commitRoundBytes
    }

    /// Compresses and writes the oldest queued groups (about `maxBytes` of staging) holding only
    /// the committer, so appenders go on encoding meanwhile. `prepare` runs first, under the
    /// state's lock, and says whether to go on. Returns the failure when the write failed (the
    /// writer is then failed), and how many staged bytes were written.
    func commitQueued(maxBytes: Int = .max,
                              prepare: (inout WriterState) -> Bool = { _ in true }) -> (JournalError?, Int) {
        let (failure, wrote, ready) = committer.withLock { committer -> (JournalError?, Int, [WriterState.Ready]) in
            let taken = state.withLock { state -> (work: [StagedWork], segment: WriterState.ActiveSegment)? in
                guard prepare(&state), state.failure == nil else { return nil }
                return state.takeQueue(maxBytes: maxBytes)
            }
            guard let (work, segment) = taken else { return (nil, 0, []) }
            do {
                let written = try committer.write(work, to: segment)
                return state.withLock { state in
                    state.published(written)
                    return (nil, written.stagedBytes, state.takeReady())
                }
            } catch {
                return state.withLock { state in
                    state.fail(error)
                    return (state.failure, 0, state.takeReady())
                }
            }
        }
        complete(ready)
        return (failure, wrote)
    }

    /// One round of the group-commit thread: cut a due group, compress and write what is
    /// queued, sync what needs it. Returns how long to sleep before the next round: zero to go
    /// again at once, nil until woken.
    func groupCommitRound() -> Duration? {
        // Chunk by chunk, so an appender waiting at the staging bound gets going again soon;
        // about the bound's worth before each sync.
        var budget = commitRoundBytes
        var first = true
        while budget > 0 {
            let (failure, wrote) = commitQueued(maxBytes: commitChunkBytes) { state in
                guard state.failure == nil, !state.isClosed else { return false }
                // Without the committer lent, cutting only queues the group: it cannot fail.
                if first && state.pendingGroupMustBeCut(now: DispatchTime.now().uptimeNanoseconds) { try? state.cutGroup() }
                return true
            }
            first = false
            if failure != nil { reportBackgroundFailure() }
            if failure != nil || wrote == 0 { break }
            budget -= wrote
        }
        let work = state.withLock { state -> (file: (any WritableFile)?, target: UInt64, wait: Duration?)? in
            guard state.failure == nil, !state.isClosed else { return nil }
            let now = DispatchTime.now().uptimeNanoseconds
            let needsSync = state.writtenSequence > state.durableSequence
                && (state.options.groupCommit.synchronizesEachGroup || state.flushTarget > state.durableSequence)
            if needsSync || state.committerCanTakeWork || state.pendingGroupMustBeCut(now: now) {
                state.flusher = .running
                return (needsSync ? state.active?.file : nil, state.writtenSequence, .zero)
            }
            let wait = state.pendingSince.flatMap { since in
                state.options.groupCommit.maxDelay.map { delay in
                    Duration.nanoseconds(max(0, Int64(clamping: delay.nanoseconds) - Int64(clamping: now &- since)))
                }
            }
            state.flusher = wait == nil ? .sleepingUntilWoken : .sleepingUntilDeadline
            return (nil, state.writtenSequence, wait)
        }
        guard let work else {
            return nil
        }
        if let file = work.file {
            do {
                try synchronize(file, through: work.target)
            } catch {
                reportBackgroundFailure()
            }
        }
        return work.wait
    }

    /// Tells the options' observer, once, that the writer failed on the group-commit thread.
    func reportBackgroundFailure() {
        let report = state.withLock { state -> (JournalError, (@Sendable (JournalError) -> Void))? in
            guard let failure = state.failure, !state.failureReported, let observer = state.options.backgroundFailureObserver else { return nil }
            state.failureReported = true
            return (failure, observer)
        }
        if let (failure, observer) = report { observer(failure) }
    }

    func synchronize(_ file: (any WritableFile)?, through target: UInt64) throws {
        if state.withLock({ $0.durableSequence >= target }) { return }
        do {
            try file?.synchronize()
        } catch {
            throw failed(error)
        }
        let ready = state.withLock { state in
            state.markDurable(target)
            return state.takeReady()
        }
        complete(ready)
    }

    /// Fails the writer with `error`, answers the waiters it fails, and returns the error to throw.
    func failed(_ error: any Error) -> any Error {
        let ready = state.withLock { state in
            state.fail(error)
            return state.takeReady()
        }
        complete(ready)
        return error
    }

    func complete(_ ready: [WriterState.Ready]) {
        for (waiter, result) in ready { waiter.completion(result) }
    }
}
