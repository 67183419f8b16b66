import Journal
import SDK

/// One launch of the app: the SDK's real ``EngineShell`` over a ``SimulatedEnvironment``, its
/// mailbox (drained to idle whenever the world lets the engine thread run), and what the checks
/// need: a shadow state folded from the *decoded* journal payloads (projection equality at every
/// input) and the state at each input boundary since the last durable record (what a crash may
/// leave).
///
/// Unchecked Sendable: the simulation is single-threaded. The closures it hands the engine
/// (completions, timers) capture it, and they run only inside the world's loop, on the
/// one thread that runs the story.
final class SimulatedProcess: @unchecked Sendable { // single-threaded: every closure handed to the engine runs inside the world's loop
    unowned let world: SimulationWorld
    /// Which launch of the app this is (events of older launches are dropped).
    let launch: Int
    private(set) var core: EngineShell<SimulatedEnvironment>!
    /// The recorder the core records into now (a fresh one after the journal came back).
    private(set) var recorder: SimulatedRecorder
    private let options: JournalOptions
    /// Whether the app shut this process's SDK down.
    private(set) var stopped = false

    private var mailbox: [EngineStimulus] = []
    private var mailboxHead = 0

    // Verification.
    /// The fold of the journal's decoded payloads since this launch began (or the journal came back).
    var shadow: SDKState
    /// The state after each input whose last record may not be durable yet (plus the last
    /// durable one): a crash must leave exactly one of them.
    private(set) var boundaries: [(sequence: UInt64, state: SDKState)] = []
    /// The sequence of the last `journalGap` this process wrote: a crash before it is durable
    /// may leave the old segment, whose tail no boundary describes.
    private(set) var resumedAt: UInt64 = 0
    /// How many inputs this process handled.
    private(set) var inputsHandled = 0
    /// What the next `journalGap` must account for: the record it counts from (the last one
    /// recovered at launch, or the snapshot that began the segment after the last gap) and
    /// every fact decided since, input by input, with the input's time (the last gap first).
    private var gapAnchor: UInt64
    private var decidedSinceAnchor: [(count: Int, time: JournalTime)] = []
    /// The last sequence number a writer this process closed had given out.
    private var numberedByEarlierWriters: UInt64 = 0

    init(world: SimulationWorld, launch: Int, writer: JournalWriter, options: JournalOptions, restored: SDKState, modules: Set<String>) {
        self.world = world
        self.launch = launch
        self.options = options
        shadow = restored
        recorder = SimulatedRecorder(writer: writer, world: world, launch: launch)
        boundaries = [(writer.lastSequence, restored)]
        gapAnchor = writer.lastSequence
        let environment = SimulatedEnvironment(world: world, launch: launch, modules: modules)
        let inbox = EngineInbox(post: { [unowned self] stimulus in post(stimulus) })
        // The app lists its projects with their auth providers, as `SDKConfiguration.knownProjects`
        // asks: a kept disable of a JWT project the SDK is no longer on can authenticate.
        core = EngineShell(environment: environment, inbox: inbox, recorder: recorder, restored: restored, knownProjects: world.appProjects,
                          sdkVersion: EngagementSDK.version)
        environment.process = self
        recorder.process = self
    }

    var state: SDKState { core.state }
    var lastSequence: UInt64 { core.lastSequence }
    /// Why the journal is not recording now, if it is not (nil: it records).
    var journalFailure: String? { core.outage?.description }
    var writer: JournalWriter { recorder.writer }

    // MARK: - The mailbox

    func post(_ stimulus: EngineStimulus) {
        guard !stopped else { return }
        mailbox.append(stimulus)
    }

    /// Handles every stimulus in the mailbox, including those its effects post meanwhile (the
    /// engine thread's loop, run to idle). Liveness: an engine that never runs idle (its effects
    /// post stimuli without end at one instant) is reported after a million, and what is left
    /// in its mailbox dropped, so the story ends.
    func drainMailbox() {
        var handled = 0
        while mailboxHead < mailbox.count {
            let stimulus = mailbox[mailboxHead]
            mailboxHead += 1
            core.handle(stimulus)
            handled += 1
            if handled == 1_000_000 {
                world.report(.liveness, "launch \(launch): the engine handled a million stimuli at \(world.now) without running idle")
                break
            }
            if mailboxHead > 256 && mailboxHead * 2 > mailbox.count {
                mailbox.removeFirst(mailboxHead)
                mailboxHead = 0
            }
        }
        mailbox.removeAll(keepingCapacity: true)
        mailboxHead = 0
    }

    /// The app shut the SDK down (`EngineLoop.stop`): every pending completion hears it
    /// (journaled), the journal closes. The world drained the mailbox first (the stop is posted
    /// behind every earlier call, as `shutdown()` posts it), so nothing is left over; what the
    /// stop's effects post is never handled: the thread ends here.
    func stop() {
        core.stop()
        stopped = true
        mailbox.removeAll()
        mailboxHead = 0
    }

    /// Opens the journal again after a failure (`EngagementSDK`'s reopen closure).
    func reopenRecorder() throws -> SimulatedRecorder {
        numberedByEarlierWriters = max(numberedByEarlierWriters, recorder.writer.lastSequence)
        let fresh = SimulatedRecorder(writer: try JournalWriter(directory: SimulationWorld.journalDirectory, options: options, snapshot: nil),
                                      world: world, launch: launch)
        fresh.process = self
        recorder = fresh
        return fresh
    }

    // MARK: - Verification

    /// After each input: the live state against the fold of what was journaled, the boundary a
    /// crash may cut at, the switch queue.
    func inputHandled(_ input: Fact, facts: Int, state: SDKState) {
        inputsHandled += 1
        decidedSinceAnchor.append((facts, state.time))
        if core.outage == nil {
            world.checkProjection(live: state, journalFold: shadow, after: input, inputNumber: inputsHandled, launch: launch)
            recordBoundary(state)
        }
        world.checkSwitchQueue(state, after: input)
    }

    /// The journal stopped recording: it holds the state after the last input it recorded.
    func journalFailed(reason: String) {
        world.noteJournalFailure(state: boundaries.last?.state ?? core.state, reason: reason)
    }

    /// A segment began with a snapshot of the state now: a boundary too.
    func segmentBegan() {
        boundaries.append((writer.lastSequence, core.state))
    }

    /// The journal was erased: it begins again at the snapshot just written, so a later gap is
    /// counted from there (the records before it were deleted on purpose, not lost).
    func journalErased() {
        segmentBegan()
        gapAnchor = writer.lastSequence
        decidedSinceAnchor = []
    }

    /// The journal came back: verification starts over from the new segment (its snapshot,
    /// then the gap), and the gap must account for exactly what the journal lost.
    func journalResumed(after gap: JournalGap, state: SDKState, lastSequence: UInt64) {
        world.checkProjection(live: state, journalFold: shadow, after: .journalGap(gap), inputNumber: inputsHandled, launch: launch)
        let segmentBase = lastSequence - 1
        world.checkGap(gap, segmentBase: segmentBase, anchor: gapAnchor, decided: decidedSinceAnchor,
                       numberedThrough: numberedByEarlierWriters, launch: launch)
        gapAnchor = segmentBase
        decidedSinceAnchor = [(1, gap.to)]
        resumedAt = lastSequence
        boundaries = [(lastSequence, state)]
    }

    func foldIntoShadow(kind: UInt32, payload: [UInt8], at time: JournalTime) {
        guard world.checksEveryInput else { return }
        do {
            shadow.evolve(try payload.withUnsafeBytes { try FactCodec.decode(kind: kind, payload: $0) }, at: time)
        } catch {
            world.report(.projection, "launch \(launch): a journaled fact of kind \(kind) does not decode: \(error)")
        }
    }

    /// Keeps the state after this input while its records may still be lost to a crash.
    private func recordBoundary(_ state: SDKState) {
        let durable = writer.durableSequence
        while boundaries.count > 1 && boundaries[1].sequence <= durable { boundaries.removeFirst() }
        if boundaries.last?.sequence != core.lastSequence { boundaries.append((core.lastSequence, state)) }
        if boundaries.count > 4_096 { boundaries.removeFirst(boundaries.count - 4_096) }
    }
}
