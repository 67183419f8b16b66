import Foundation
import Journal
import Locking
import SDK

/// The journal as the simulated device records it: a real ``JournalWriter`` over the world's
/// storage (which may fail a sync or lose power), with the group-commit thread's 2 ms bound and
/// the disk's sync delay played on the virtual clock. It also folds every record it appends,
/// decoded from its payload, into the process's shadow state.
///
/// Unchecked Sendable: the simulation is single-threaded (see ``SimulatedProcess``).
final class SimulatedRecorder: FactRecorder, @unchecked Sendable { // single-threaded: every closure handed to the engine runs inside the world's loop
    let writer: JournalWriter
    private unowned let world: SimulationWorld
    private let launch: Int
    weak var process: SimulatedProcess?
    /// Whether a group-commit bound is scheduled for the pending group.
    private var groupCommitScheduled = false
    /// The group-commit bound (`GroupCommit.maxDelay`'s default, 2 ms).
    static let groupCommitMilliseconds: Int64 = 2

    init(writer: JournalWriter, world: SimulationWorld, launch: Int) {
        self.writer = writer
        self.world = world
        self.launch = launch
    }

    var streamID: UUID { writer.journalID }
    var lastSequence: UInt64 { writer.lastSequence }
    var recoveredThrough: UInt64 { writer.recoveredThrough }

    func recordsHandedOut(after sequence: UInt64) -> HandedOutRecords? {
        writer.recordsHandedOut(after: sequence)
    }

    func beginSegmentIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        if try writer.rotateIfNeeded(time: time, snapshotIsLarge: snapshotIsLarge, snapshot: provider) { process?.segmentBegan() }
    }

    /// A new segment after an outage: verification starts over from its snapshot, decoded.
    func beginSegment(time: JournalTime, skippingThrough: UInt64?, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        var snapshot: [UInt8] = []
        try writer.beginSegment(time: time, skippingThrough: skippingThrough) { request in
            snapshot = provider(request)
            return snapshot
        }
        guard let process else { return }
        do {
            process.shadow = try StateCodec.decode(snapshot)
        } catch {
            world.report(.projection, "launch \(launch): the snapshot of the segment begun after a journal outage does not decode: \(error)")
        }
    }

    func removeRecords(olderThan maxAge: Duration, at time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        let before = writer.lastSequence
        try writer.removeSegments(olderThan: maxAge, at: time, snapshot: provider)
        if writer.lastSequence != before { process?.segmentBegan() }
    }

    /// The journal erased: verification starts over from the new segment's snapshot, decoded.
    func eraseAll(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> JournalErasure {
        var snapshot: [UInt8] = []
        let erasure = try writer.eraseAll(time: time) { request in
            snapshot = provider(request)
            return snapshot
        }
        if let process {
            process.journalErased()
            do {
                process.shadow = try StateCodec.decode(snapshot)
            } catch {
                world.report(.projection, "launch \(launch): the snapshot of the segment begun by an erasure does not decode: \(error)")
            }
        }
        return erasure
    }

    func record(_ bundle: RecordBundle, timestamp: JournalTime) throws -> UInt64 {
        let last = try writer.appendBundle(bundle, timestamp: timestamp)
        world.noteJournalTime(timestamp)
        if let process {
            for index in 0..<bundle.count {
                process.foldIntoShadow(kind: bundle.kinds[index], payload: Array(bundle.payloads[bundle.payloadRange(index)]), at: timestamp)
            }
        }
        scheduleGroupCommitIfPending()
        return last
    }

    /// The flush reaches the disk after its sync delay; the disk may then fail once or for a while.
    func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void) {
        let writer = writer
        let world = world
        world.schedule(.engine(launch: launch) {
            world.maybeBreakDisk()
            // Without a group-commit thread the writer's flush completes on this thread, before it returns.
            writer.flush(completion: completion)
        }, after: world.draw(world.profile.syncDelayMilliseconds))
    }

    func close() throws {
        try writer.close()
    }

    /// The group-commit thread's 2 ms bound, on the virtual clock: once a group is pending, it
    /// is cut and made durable 2 ms later. (With `FaultProfile.groupsCutInsideInputs` groups
    /// are also cut every 64 records, as the SDK's default; the journal still never cuts inside
    /// one input's bundle.)
    private func scheduleGroupCommitIfPending() {
        guard !groupCommitScheduled, writer.lastSequence > writer.durableSequence else { return }
        groupCommitScheduled = true
        world.schedule(.engine(launch: launch) { [self] in commitGroup() }, after: Self.groupCommitMilliseconds)
    }

    /// The pending group's bound passed: cut it and make it durable. A failed sync is reported
    /// to the engine at once (`EngineStimulus.journalFailed`), as the SDK's group-commit thread does.
    private func commitGroup() {
        groupCommitScheduled = false
        guard let process, !process.stopped, process.recorder === self, process.journalFailure == nil else { return }
        do {
            try writer.sync()
        } catch {
            // The write or the sync failed: the writer is stopped, and the engine hears it now.
            process.post(.journalFailed("\(error)"))
        }
    }
}
