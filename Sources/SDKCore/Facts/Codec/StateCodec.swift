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

// Hand-written: a snapshot holds thousands of entries, read in one pass (a layout reads the message once per field).
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

extension HeldEvent: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "call", \HeldEvent.call, .message, .required),
        ValueField(2, "event", \HeldEvent.event, .message, .required),
        make: HeldEvent.init(call:event:))
}

// Hand-written: its status spans fields 2 and 3 (the tag and an attempt shared by three of its cases).
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

struct TaskOrderEntry: DeclaredFieldCodable {
    var project: ProjectFingerprint
    var tasks: [TaskID]

    static let layout = ValueLayout(
        ValueField(1, "project", \TaskOrderEntry.project, .message, .required),
        ValueField(repeated: 2, "tasks", \TaskOrderEntry.tasks, FieldCoding<UInt64>.unsigned.map({ TaskID($0) }, \.number)),
        make: TaskOrderEntry.init(project:tasks:))
}

struct PendingCallEntry: DeclaredFieldCodable {
    var id: CallID
    var call: PendingCall

    /// A call's name as its raw value; one this build does not know (or none) is an unknown
    /// variant: a newer writer's.
    private static let name = FieldCoding<String>.string.map({ (raw) throws(CodecError) in
        guard let name = PublicCall.Name(rawValue: raw) else { throw unknownName }
        return name
    }, \.rawValue)
    private static let unknownName = CodecError("unknown call name", offset: 0, unknownVariant: true)

    static let layout = ValueLayout(
        ValueField(1, "call", \PendingCallEntry.id, .message, .required),
        ValueField(2, "name", \PendingCallEntry.call.name, name, .required(else: unknownName)),
        ValueField(3, "madeAt", \PendingCallEntry.call.madeAt, .time, .defaultedToZero),
        ValueField(4, "caller", \PendingCallEntry.call.caller, .unsigned, .defaulted(0)),
        ValueField(optional: 5, "projectAtCall", \PendingCallEntry.call.projectAtCall, .message),
        make: { PendingCallEntry(id: $0, call: PendingCall(name: $1, madeAt: $2, caller: $3, projectAtCall: $4)) })
}

struct TimerEntry: DeclaredFieldCodable {
    var purpose: TimerPurpose
    var due: JournalTime

    static let layout = ValueLayout(
        ValueField(1, "timer", \TimerEntry.purpose, .message, .required),
        ValueField(2, "due", \TimerEntry.due, .time, .defaultedToZero),
        make: TimerEntry.init(purpose:due:))
}

struct AuthEntry: DeclaredFieldCodable {
    var project: ProjectFingerprint
    var state: AuthState

    static let layout = ValueLayout(
        ValueField(1, "project", \AuthEntry.project, .message, .required),
        ValueField(2, "refreshesUsed", \AuthEntry.state.refreshesUsed, .int, .defaulted(0)),
        ValueField(optional: 3, "refreshing", \AuthEntry.state.refreshing, .unsigned),
        make: { AuthEntry(project: $0, state: AuthState(refreshesUsed: $1, refreshing: $2)) })
}

struct DurabilityEntry: DeclaredFieldCodable {
    var request: UInt64
    var wait: DurabilityWait

    static let layout = ValueLayout(
        ValueField(1, "request", \DurabilityEntry.request, .unsigned, .defaulted(0)),
        ValueField(2, "wait", \DurabilityEntry.wait, .message, .required),
        make: DurabilityEntry.init(request:wait:))
}

struct ModuleEntry: DeclaredFieldCodable {
    var name: String
    var lifecycle: ModuleLifecycle

    static let layout = ValueLayout(
        ValueField(1, "name", \ModuleEntry.name, .string, .defaulted("")),
        ValueField(2, "initialized", \ModuleEntry.lifecycle.initialized, .bool, .defaulted(false)),
        ValueField(3, "started", \ModuleEntry.lifecycle.started, .bool, .defaulted(false)),
        ValueField(4, "deinitialized", \ModuleEntry.lifecycle.deinitialized, .bool, .defaulted(false)),
        ValueField(5, "generation", \ModuleEntry.lifecycle.generation, .unsigned, .defaulted(0)),
        make: { ModuleEntry(name: $0, lifecycle: ModuleLifecycle(initialized: $1, started: $2, deinitialized: $3, generation: $4)) })
}

struct HookEntry: DeclaredFieldCodable {
    var hook: UInt64
    var pending: PendingHook

    static let layout = ValueLayout(
        ValueField(1, "hook", \HookEntry.hook, .unsigned, .defaulted(0)),
        ValueField(2, "module", \HookEntry.pending.module, .string, .defaulted("")),
        ValueField(3, "event", \HookEntry.pending.signal, .message, .required),
        ValueField(4, "startedAt", \HookEntry.pending.startedAt, .time, .defaultedToZero),
        make: { HookEntry(hook: $0, pending: PendingHook(module: $1, signal: $2, startedAt: $3)) })
}

struct LinkJobEntry: DeclaredFieldCodable {
    var job: UInt64
    var link: LinkJob

    static let layout = ValueLayout(
        ValueField(1, "job", \LinkJobEntry.job, .unsigned, .defaulted(0)),
        ValueField(2, "call", \LinkJobEntry.link.call, .message, .required),
        ValueField(3, "url", \LinkJobEntry.link.url, .string, .defaulted("")),
        ValueField(4, "project", \LinkJobEntry.link.project, .message, .required),
        ValueField(5, "generation", \LinkJobEntry.link.generation, .unsigned, .defaulted(0)),
        make: { LinkJobEntry(job: $0, link: LinkJob(call: $1, url: $2, project: $3, generation: $4)) })
}

extension SwitchState: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(repeated: 1, "gate", \SwitchState.gate, .message),
        ValueField(2, "gateBytes", \SwitchState.gateBytes, .int, .defaulted(0)),
        ValueField(optional: 3, "inFlight", \SwitchState.inFlight, .message),
        ValueField(repeated: 4, "queue", \SwitchState.queue, .message),
        ValueField(optional: 5, "awaitingCallbacks", \SwitchState.awaitingCallbacks, .message),
        ValueField(6, "nextSwitchNumber", \SwitchState.nextSwitchNumber, .unsigned, .defaulted(1)),
        ValueField(optional: 7, "releasingHeldCalls", \SwitchState.releasingHeldCalls, .message),
        make: SwitchState.init(gate:gateBytes:inFlight:queue:awaitingCallbacks:nextSwitchNumber:releasingHeldCalls:))
}

extension GatedCall: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "call", \GatedCall.call, .message, .required),
        ValueField(2, "madeAt", \GatedCall.madeAt, .time, .defaultedToZero),
        ValueField(3, "bytes", \GatedCall.bytes, .int, .defaulted(0)),
        make: GatedCall.init(call:madeAt:bytes:))
}

extension SwitchRequest: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "switch request", \SwitchRequest.id, .message, .required),
        ValueField(2, "switch request", \SwitchRequest.project, .message, .required),
        ValueField(repeated: 3, "calls", \SwitchRequest.calls, .message),
        make: SwitchRequest.init(id:project:calls:))
}

extension SwitchRun: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "switch run", \SwitchRun.id, .message, .required),
        ValueField(optional: 2, "from", \SwitchRun.from, .message),
        ValueField(3, "switch run", \SwitchRun.to, .message, .required),
        ValueField(repeated: 4, "calls", \SwitchRun.calls, .message),
        ValueField(5, "startedAt", \SwitchRun.startedAt, .time, .defaultedToZero),
        ValueField(optional: 6, "step", \SwitchRun.step, .message),
        ValueField(7, "stepStartedAt", \SwitchRun.stepStartedAt, .time, .defaultedToZero),
        ValueField(repeated: 8, "warnings", \SwitchRun.warnings, .string),
        ValueField(repeated: 9, "stepProblems", \SwitchRun.stepProblems, .string),
        ValueField(10, "firstTaskOfWindow", \SwitchRun.firstTaskOfWindow, .unsigned, .defaulted(.max)),
        make: SwitchRun.init(id:from:to:calls:startedAt:step:stepStartedAt:warnings:stepProblems:firstTaskOfWindow:))
}

extension ClockAnchor: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "monotonic", \ClockAnchor.monotonic.microseconds, .signed, .defaulted(0)),
        ValueField(optional: 2, "boot", \ClockAnchor.monotonic.boot, .unsigned),
        ValueField(3, "time", \ClockAnchor.time, .time, .defaultedToZero),
        make: { ClockAnchor(monotonic: MonotonicReading(microseconds: $0, boot: $1), time: $2) })
}
