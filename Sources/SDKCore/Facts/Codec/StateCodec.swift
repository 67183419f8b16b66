import Foundation
import Journal

/// Encodes the whole ``SDKState`` as a snapshot record (the first record of every segment), and
/// back. Collections are written in a sorted order, so equal states give equal bytes.
package enum StateCodec {
    /// The snapshot payload for `state`.
    public static func encode(_ state: SDKState) -> [UInt8] {
        // Written into a buffer of about the snapshot's size from the start: grown from the
        // usual scratch size, a burst's snapshot (hundreds of kilobytes) would be copied at each
        // of a dozen doublings.
        FieldWriter.withScratch(capacity: capacityHint(for: state)) { writer in
            state.encode(to: &writer)
            return writer.bytes
        }
    }

    /// About the size of `state`'s snapshot, erring large: what its collections that grow with
    /// the calls in flight take (pending calls, queued events and their bodies), plus room for
    /// the rest. A state may come from a journal (a snapshot from the field, or hostile bytes),
    /// whose counters say anything: each is taken between 0 and ``largestHintedCount`` and the
    /// hint is at most ``largestHint``; a larger snapshot still grows its buffer as it is written.
    package static func capacityHint(for state: SDKState) -> Int {
        capacityHint(pendingCalls: state.pendingCalls.count, queuedBytes: state.queueFootprint, queuedEvents: state.queuedEvents,
                     heldEvents: state.heldEvents.count, gateBytes: state.switching.gateBytes, gatedCalls: state.switching.gate.count)
    }

    /// ``capacityHint(for:)`` from the state's counts. The engine asks it on every input while a
    /// rotation waits out a burst: handing it the state it keeps would copy the whole state each
    /// time (retaining every field), where reading the six counts copies nothing.
    package static func capacityHint(pendingCalls: Int, queuedBytes: Int, queuedEvents: Int, heldEvents: Int,
                                     gateBytes: Int, gatedCalls: Int) -> Int {
        func count(_ value: Int) -> Int { Swift.min(Swift.max(value, 0), largestHintedCount) }
        let hint = 4_096 + count(pendingCalls) * 96 + count(queuedBytes) + count(queuedEvents) * 48
            + count(heldEvents) * 256 + count(gateBytes) + count(gatedCalls) * 64
        return Swift.min(hint, largestHint)
    }

    /// The largest count ``capacityHint(for:)`` takes as it is (its terms cannot overflow).
    static let largestHintedCount = 1 << 24
    /// The largest buffer a snapshot starts with: 16 MiB.
    static let largestHint = 1 << 24

    /// The state a snapshot payload holds.
    public static func decode(_ payload: some Collection<UInt8>) throws(CodecError) -> SDKState {
        if let decoded = payload.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0)) }) {
            return try decoded.get()
        }
        return try Array(payload).withUnsafeBytes { decode($0) }.get()
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<SDKState, CodecError> {
        var reader = FieldReader(bytes)
        do throws(CodecError) { return .success(try SDKState(from: &reader)) } catch { return .failure(error) }
    }
}

extension SDKState: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, live)
        writer.unsigned(2, generation)
        writer.message(3, rules)
        writer.string(4, sdkVersion)
        writer.messages(5, moduleDescriptors)
        writer.messages(6, projects.keys.sorted().map { projects[$0]! })
        writer.string(7, email)
        writer.string(8, userID)
        writer.string(9, pushToken)
        writer.message(10, attribution)
        writer.messages(11, heldEvents)
        writer.int(12, unknownUserSessions)
        writer.strings(13, inAppMessageIDs)
        writer.strings(14, embeddedMessageIDs)
        writer.messages(15, clearedProjects.sorted())
        writer.bool(16, instanceRunning)
        writer.messages(17, tasks.keys.sorted().map { tasks[$0]! })
        writer.messages(18, taskOrder.keys.sorted().map { TaskOrderEntry(project: $0, tasks: taskOrder[$0]!) })
        // Field 19 (the queue's bytes) is not written (format 1.4): it is counted from the tasks.
        writer.unsigned(20, nextTaskNumber)
        // Sorted by index, not by key then looked up: a state in a burst holds thousands of
        // pending calls, and a look-up hashes the key again. The ids are sorted as their
        // two-word order keys, made once per id (a radix sort: ``TwoWordKeySort``).
        let pendingIndices = Array(pendingCalls.indices)
        let pendingOrder = TwoWordKeySort.sorted(pendingIndices.enumerated().map { position, index in
            let key = pendingCalls[index].key.orderKey
            return TwoWordKeySort.Entry(high: key.0, low: key.1, position: position)
        })
        writer.messages(21, pendingOrder.lazy.map {
            let index = pendingIndices[$0.position]
            return PendingCallEntry(id: pendingCalls[index].key, call: pendingCalls[index].value)
        })
        writer.messages(22, timers.map { TimerEntry(purpose: $0.key, due: $0.value) }.sorted { $0.encodedMessage().lexicographicallyPrecedes($1.encodedMessage()) })
        writer.messages(23, auth.keys.sorted().map { AuthEntry(project: $0, state: auth[$0]!) })
        writer.messages(24, durabilityWaits.keys.sorted().map { DurabilityEntry(request: $0, wait: durabilityWaits[$0]!) })
        writer.unsigned(25, nextRequestNumber)
        writer.messages(26, modules.keys.sorted().map { ModuleEntry(name: $0, lifecycle: modules[$0]!) })
        writer.messages(27, hooks.keys.sorted().map { HookEntry(hook: $0, pending: hooks[$0]!) })
        writer.message(28, switching)
        writer.signed(29, time.microsecondsSince1970)
        writer.messages(30, linkJobs.keys.sorted().map { LinkJobEntry(job: $0, link: linkJobs[$0]!) })
        // Written only when declined: a state from before consent existed reads as granted.
        if consentDeclined { writer.bool(31, true) }
        // Written only once the wall clock jumped, and once an engine start read the monotonic
        // clock: a state from before the two clocks reads as never jumped, with no anchor.
        if clockOffsetMicroseconds != 0 { writer.signed(32, clockOffsetMicroseconds) }
        writer.message(33, clockAnchor)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init()
        while let field = try reader.next() {
            switch field.number {
            case 1: live = try field.message()
            case 2: generation = try field.unsigned()
            case 3: rules = try field.message()
            case 4: sdkVersion = try field.string()
            case 5: moduleDescriptors.append(try field.message())
            case 6:
                let project: ProjectRef = try field.message()
                projects[project.fingerprint] = project
            case 7: email = try field.string()
            case 8: userID = try field.string()
            case 9: pushToken = try field.string()
            case 10: attribution = try field.message()
            case 11: heldEvents.append(try field.message())
            case 12: unknownUserSessions = try field.int()
            case 13: inAppMessageIDs.append(try field.string())
            case 14: embeddedMessageIDs.append(try field.string())
            case 15: clearedProjects.insert(try field.message())
            case 16: instanceRunning = try field.bool()
            case 17:
                let queued: QueuedTask = try field.message()
                tasks[queued.task.id] = queued
            case 18:
                let entry: TaskOrderEntry = try field.message()
                taskOrder[entry.project] = entry.tasks
            case 19: break   // the queue's footprint, counted again from its tasks below
            case 20: nextTaskNumber = try field.unsigned()
            case 21:
                let entry: PendingCallEntry = try field.message()
                pendingCalls[entry.id] = entry.call
            case 22:
                let entry: TimerEntry = try field.message()
                timers[entry.purpose] = entry.due
            case 23:
                let entry: AuthEntry = try field.message()
                auth[entry.project] = entry.state
            case 24:
                let entry: DurabilityEntry = try field.message()
                durabilityWaits[entry.request] = entry.wait
            case 25: nextRequestNumber = try field.unsigned()
            case 26:
                let entry: ModuleEntry = try field.message()
                modules[entry.name] = entry.lifecycle
            case 27:
                let entry: HookEntry = try field.message()
                hooks[entry.hook] = entry.pending
            case 28: switching = try field.message()
            case 29: time = JournalTime(microsecondsSince1970: try field.signed())
            case 30:
                let entry: LinkJobEntry = try field.message()
                linkJobs[entry.job] = entry.link
            case 31: consentDeclined = try field.bool()
            case 32: clockOffsetMicroseconds = try field.signed()
            case 33: clockAnchor = try field.message()
            default: break
            }
        }
        queuedEvents = tasks.values.reduce(0) { $0 + $1.task.eventCount }
        queueFootprint = tasks.values.reduce(0) { $0 + $1.task.footprint }
    }
}

extension HeldEvent: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, call)
        writer.message(2, event)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(call: try fields.required(1, "call"), event: try fields.required(2, "event"))
    }
}

extension QueuedTask: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, task)
        switch status {
        case .queued: writer.unsigned(2, 1)
        case .inFlight(let attempt): writer.unsigned(2, 2); writer.int(3, attempt)
        case .retrying(let next): writer.unsigned(2, 3); writer.int(3, next)
        case .awaitingToken(let next): writer.unsigned(2, 4); writer.int(3, next)
        }
        if serverFailures != 0 { writer.int(4, serverFailures) }
        if waitsForNetwork { writer.bool(5, true) }
        if let aside {
            writer.signed(6, aside.since.microsecondsSince1970)
            writer.message(7, aside.reason)
        }
        if tokenRefreshes != 0 { writer.int(8, tokenRefreshes) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        let attempt = try fields.int(3) ?? 1
        let status: Status = switch try fields.unsigned(2) {
        case 2: .inFlight(attempt: attempt)
        case 3: .retrying(nextAttempt: attempt)
        case 4: .awaitingToken(nextAttempt: attempt)
        case 1, nil: .queued
        case let other?: throw CodecError("unknown task status \(other)", offset: 0, unknownVariant: true)
        }
        let asideSince = JournalTime(microsecondsSince1970: try fields.signed(6) ?? 0)
        let asideReason: NotSentReason? = try fields.message(7)
        self.init(task: try fields.required(1, "task"), status: status, serverFailures: try fields.int(4) ?? 0,
                  waitsForNetwork: try fields.bool(5), aside: asideReason.map { AsideWait(since: asideSince, reason: $0) },
                  tokenRefreshes: try fields.int(8) ?? 0)
    }
}

struct TaskOrderEntry: FieldCodable {
    var project: ProjectFingerprint
    var tasks: [TaskID]

    init(project: ProjectFingerprint, tasks: [TaskID]) {
        self.project = project
        self.tasks = tasks
    }

    func encode(to writer: inout FieldWriter) {
        writer.message(1, project)
        for task in tasks { writer.unsigned(2, task.number) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var project: ProjectFingerprint?
        var tasks: [TaskID] = []
        while let field = try reader.next() {
            switch field.number {
            case 1: project = try field.message()
            case 2: tasks.append(TaskID(try field.unsigned()))
            default: break
            }
        }
        guard let project else { throw missing("project") }
        self.init(project: project, tasks: tasks)
    }
}

struct PendingCallEntry: FieldCodable {
    var id: CallID
    var call: PendingCall

    init(id: CallID, call: PendingCall) {
        self.id = id
        self.call = call
    }

    func encode(to writer: inout FieldWriter) {
        writer.message(1, id)
        writer.string(2, call.name.rawValue)
        writer.signed(3, call.madeAt.microsecondsSince1970)
        writer.unsigned(4, call.caller)
        writer.message(5, call.projectAtCall)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        guard let name = PublicCall.Name(rawValue: try fields.string(2) ?? "") else {
            throw CodecError("unknown call name", offset: 0, unknownVariant: true)
        }
        self.init(id: try fields.required(1, "call"), call: PendingCall(
            name: name, madeAt: JournalTime(microsecondsSince1970: try fields.signed(3) ?? 0),
            caller: try fields.unsigned(4) ?? 0, projectAtCall: try fields.message(5)))
    }
}

struct TimerEntry: FieldCodable {
    var purpose: TimerPurpose
    var due: JournalTime

    init(purpose: TimerPurpose, due: JournalTime) {
        self.purpose = purpose
        self.due = due
    }

    func encode(to writer: inout FieldWriter) {
        writer.message(1, purpose)
        writer.signed(2, due.microsecondsSince1970)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(purpose: try fields.required(1, "timer"), due: JournalTime(microsecondsSince1970: try fields.signed(2) ?? 0))
    }
}

struct AuthEntry: FieldCodable {
    var project: ProjectFingerprint
    var state: AuthState

    init(project: ProjectFingerprint, state: AuthState) {
        self.project = project
        self.state = state
    }

    func encode(to writer: inout FieldWriter) {
        writer.message(1, project)
        writer.int(2, state.refreshesUsed)
        writer.unsigned(3, state.refreshing)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(project: try fields.required(1, "project"),
                  state: AuthState(refreshesUsed: try fields.int(2) ?? 0, refreshing: try fields.unsigned(3)))
    }
}

struct DurabilityEntry: FieldCodable {
    var request: UInt64
    var wait: DurabilityWait

    init(request: UInt64, wait: DurabilityWait) {
        self.request = request
        self.wait = wait
    }

    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, request)
        writer.message(2, wait)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(request: try fields.unsigned(1) ?? 0, wait: try fields.required(2, "wait"))
    }
}

struct ModuleEntry: FieldCodable {
    var name: String
    var lifecycle: ModuleLifecycle

    init(name: String, lifecycle: ModuleLifecycle) {
        self.name = name
        self.lifecycle = lifecycle
    }

    func encode(to writer: inout FieldWriter) {
        writer.string(1, name)
        writer.bool(2, lifecycle.initialized)
        writer.bool(3, lifecycle.started)
        writer.bool(4, lifecycle.deinitialized)
        writer.unsigned(5, lifecycle.generation)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(name: try fields.string(1) ?? "", lifecycle: ModuleLifecycle(
            initialized: try fields.bool(2), started: try fields.bool(3), deinitialized: try fields.bool(4),
            generation: try fields.unsigned(5) ?? 0))
    }
}

struct HookEntry: FieldCodable {
    var hook: UInt64
    var pending: PendingHook

    init(hook: UInt64, pending: PendingHook) {
        self.hook = hook
        self.pending = pending
    }

    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, hook)
        writer.string(2, pending.module)
        writer.message(3, pending.signal)
        writer.signed(4, pending.startedAt.microsecondsSince1970)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(hook: try fields.unsigned(1) ?? 0, pending: PendingHook(            module: try fields.string(2) ?? "", signal: try fields.required(3, "event"),
            startedAt: JournalTime(microsecondsSince1970: try fields.signed(4) ?? 0)))
    }
}

struct LinkJobEntry: FieldCodable {
    var job: UInt64
    var link: LinkJob

    init(job: UInt64, link: LinkJob) {
        self.job = job
        self.link = link
    }

    func encode(to writer: inout FieldWriter) {
        writer.unsigned(1, job)
        writer.message(2, link.call)
        writer.string(3, link.url)
        writer.message(4, link.project)
        writer.unsigned(5, link.generation)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(job: try fields.unsigned(1) ?? 0, link: LinkJob(
            call: try fields.required(2, "call"), url: try fields.string(3) ?? "", project: try fields.required(4, "project"),
            generation: try fields.unsigned(5) ?? 0))
    }
}

extension SwitchState: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.messages(1, gate)
        writer.int(2, gateBytes)
        writer.message(3, inFlight)
        writer.messages(4, queue)
        writer.message(5, awaitingCallbacks)
        writer.unsigned(6, nextSwitchNumber)
        writer.message(7, releasingHeldCalls)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        self.init()
        while let field = try reader.next() {
            switch field.number {
            case 1: gate.append(try field.message())
            case 2: gateBytes = try field.int()
            case 3: inFlight = try field.message()
            case 4: queue.append(try field.message())
            case 5: awaitingCallbacks = try field.message()
            case 6: nextSwitchNumber = try field.unsigned()
            case 7: releasingHeldCalls = try field.message()
            default: break
            }
        }
    }
}

extension GatedCall: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, call)
        writer.signed(2, madeAt.microsecondsSince1970)
        writer.int(3, bytes)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(call: try fields.required(1, "call"), madeAt: JournalTime(microsecondsSince1970: try fields.signed(2) ?? 0),
                  bytes: try fields.int(3) ?? 0)
    }
}

extension SwitchRequest: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, id)
        writer.message(2, project)
        writer.messages(3, calls)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var id: SwitchID?, project: ProjectRef?
        var calls: [CallID] = []
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.message()
            case 2: project = try field.message()
            case 3: calls.append(try field.message())
            default: break
            }
        }
        guard let id, let project else { throw missing("switch request") }
        self.init(id: id, project: project, calls: calls)
    }
}

extension SwitchRun: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.message(1, id)
        writer.message(2, from)
        writer.message(3, to)
        writer.messages(4, calls)
        writer.signed(5, startedAt.microsecondsSince1970)
        writer.message(6, step)
        writer.signed(7, stepStartedAt.microsecondsSince1970)
        writer.strings(8, warnings)
        writer.strings(9, stepProblems)
        writer.unsigned(10, firstTaskOfWindow)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var id: SwitchID?, from: ProjectRef?, to: ProjectRef?, step: TeardownStepKind?
        var calls: [CallID] = []
        var started: Int64 = 0, stepStarted: Int64 = 0
        var warnings: [String] = [], problems: [String] = []
        var window = UInt64.max
        while let field = try reader.next() {
            switch field.number {
            case 1: id = try field.message()
            case 2: from = try field.message()
            case 3: to = try field.message()
            case 4: calls.append(try field.message())
            case 5: started = try field.signed()
            case 6: step = try field.message()
            case 7: stepStarted = try field.signed()
            case 8: warnings.append(try field.string())
            case 9: problems.append(try field.string())
            case 10: window = try field.unsigned()
            default: break
            }
        }
        guard let id, let to else { throw missing("switch run") }
        self.init(id: id, from: from, to: to, calls: calls, startedAt: JournalTime(microsecondsSince1970: started), step: step,
                  stepStartedAt: JournalTime(microsecondsSince1970: stepStarted), warnings: warnings, stepProblems: problems,
                  firstTaskOfWindow: window)
    }
}

extension ClockAnchor: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        writer.signed(1, monotonic.microseconds)
        writer.unsigned(2, monotonic.boot)
        writer.signed(3, time.microsecondsSince1970)
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try FieldsByNumber(&reader)
        self.init(monotonic: MonotonicReading(microseconds: try fields.signed(1) ?? 0, boot: try fields.unsigned(2)),
                  time: JournalTime(microsecondsSince1970: try fields.signed(3) ?? 0))
    }
}
