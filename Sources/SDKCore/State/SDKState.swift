import Foundation
import Journal

/// Everything the SDK believes, as a pure fold of the journal's facts (``evolve(_:at:)``).
///
/// The live engine and `replay` compute it the same way, so what `replay state` shows is exactly
/// what the SDK believed. It holds no secrets: API keys and JWTs live outside it.
package struct SDKState: Sendable, Equatable {
    // MARK: Lifecycle

    /// The project the SDK is on; nil before initialization.
    public var live: ProjectRef?
    /// Counts instances: each initialization and each switch landing starts a new one.
    public var generation: UInt64 = 0
    /// Engine rules in force (from the last engine start).
    public var rules = EngineRules()
    /// The SDK version of the last engine start (sent with message fetches).
    public var sdkVersion = ""
    /// The modules plugged in (from the last engine start), in delivery order.
    public var moduleDescriptors: [ModuleDescriptor] = []
    /// Every project a task may still be sent to, by fingerprint.
    public var projects: [ProjectFingerprint: ProjectRef] = [:]

    // MARK: Identity and project-scoped storage

    public var email: String?
    public var userID: String?
    public var pushToken: String?
    public var attribution: AttributionInfo?
    /// Events made with no identity, held in the live project's storage.
    public var heldEvents: [HeldEvent] = []
    /// App sessions counted with no identity.
    public var unknownUserSessions = 0
    public var inAppMessageIDs: [String] = []
    public var embeddedMessageIDs: [String] = []
    /// Projects whose storage a switch cleared; late writes for them are refused.
    public var clearedProjects: Set<ProjectFingerprint> = []
    /// Whether an instance runs in this process (false from engine start until initialized).
    public var instanceRunning = false
    /// Whether the user declined (``PublicCall/setConsent(granted:)``): no request leaves, and
    /// calls other than the control calls resolve at once as declined.
    public var consentDeclined = false

    // MARK: Delivery

    /// Queued and in-flight tasks, by id.
    public var tasks: [TaskID: QueuedTask] = [:]
    /// Each project's tasks in the order they must be sent.
    public var taskOrder: [ProjectFingerprint: [TaskID]] = [:]
    /// What the queued tasks take of the queue's byte bound (``DeliveryTask/footprint``, summed):
    /// the queue is bounded by events and by these bytes.
    public var queueFootprint = 0
    /// Events (calls) in the queue: one per task, plus each task's batch.
    public var queuedEvents = 0
    public var nextTaskNumber: UInt64 = 1

    // MARK: Calls, timers, requests

    /// Calls made and not yet resolved.
    public var pendingCalls = CallTable<PendingCall>()
    /// What the input being folded carries from its `callReceived` to its later facts (its
    /// `track` call, for ``receivedTrackBody(of:at:)``): not part of the state's value, not in
    /// snapshots, and left as it is by `decide`, which has the input at hand.
    public var input = InputCarryOver()
    public var timers: [TimerPurpose: JournalTime] = [:]
    /// JWT refreshes per project for the current instance.
    public var auth: [ProjectFingerprint: AuthState] = [:]
    /// Durability requests not yet answered, and what waits on each.
    public var durabilityWaits: [UInt64: DurabilityWait] = [:]
    public var nextRequestNumber: UInt64 = 1

    // MARK: Modules

    /// Each module's lifecycle in the current instance.
    public var modules: [String: ModuleLifecycle] = [:]
    /// Awaited module hooks not finished yet.
    public var hooks: [UInt64: PendingHook] = [:]

    // MARK: Asynchronous jobs

    /// Tracked links being resolved, by job number.
    public var linkJobs: [UInt64: LinkJob] = [:]

    // MARK: Switching

    public var switching = SwitchState()

    /// The time of the last fact applied: the journal's time, which runs on the monotonic clock
    /// (docs/ARCHITECTURE.md, "Two clocks").
    public var time = JournalTime(microsecondsSince1970: 0)

    // MARK: Clocks

    /// How far the device's wall clock reads from the journal's time (µs, wall minus journal):
    /// 0 until the wall clock jumps (``Fact/clockJumped(wall:jumpMicroseconds:)``).
    public var clockOffsetMicroseconds: Int64 = 0
    /// The monotonic clock at the last engine start, and the journal's time then: a relaunch in
    /// the same boot carries the journal's time on from here exactly.
    public var clockAnchor: ClockAnchor?
}

extension SDKState {
    /// The state before any fact. Here, not in the struct, so that the memberwise initializer
    /// the field declaration names exists (SDKState+Fields.swift: a field added above is
    /// declared there, with its privacy class); its unused argument sets it apart from the
    /// no-argument initializer Swift makes.
    public init(_ empty: Void = ()) {}
}

/// An event held for an unknown user. It holds its room in the delivery queue from the moment
/// it is held, so that identifying the user releases it into a queue that has room for it.
package struct HeldEvent: Sendable, Hashable {
    public var call: CallID
    public var event: PublicCall {
        didSet { reservedBytes = RequestBody.reservedBytes(forHeld: event) }
    }
    /// The body bytes it holds in the delivery queue: at least what its request's body takes,
    /// whoever the user turns out to be.
    public private(set) var reservedBytes: Int

    public init(call: CallID, event: PublicCall) {
        self.call = call
        self.event = event
        reservedBytes = RequestBody.reservedBytes(forHeld: event)
    }
}

/// A task in the queue.
package struct QueuedTask: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        /// Waiting its turn.
        case queued
        /// Sent; attempt `n` is on the wire.
        case inFlight(attempt: Int)
        /// The last attempt failed; attempt `nextAttempt` is due at the timer (or at once when
        /// the app says the network is back, if no response came).
        case retrying(nextAttempt: Int)
        /// Waiting for a fresh JWT before its next attempt.
        case awaitingToken(nextAttempt: Int)
    }

    public var task: DeliveryTask
    public var status: Status
    /// How many times the project answered 5xx or 429: bounded by `RetryRules.maxAttempts`.
    /// Attempts that got no response at all are not counted: they never use the task up.
    public var serverFailures = 0
    /// Whether the task waits because its last attempt got no response (offline, refused,
    /// dropped, timed out): the app saying the network is back sends it at once.
    public var waitsForNetwork = false
    /// Set while the task waits aside because its last attempt could not be made (no JWT for its
    /// user, no API key, no auth provider): the rest of its project's queue goes on meanwhile.
    public var aside: AsideWait?
    /// How many fresh JWTs were asked for in a row for this request, after 401s: bounded by
    /// `RetryRules.jwtRefreshBudget`, counted again from 0 once it gets another answer.
    public var tokenRefreshes = 0

    /// Whether the task waits aside for its retry timer (not yet due).
    func waitsAside(timers: [TimerPurpose: JournalTime]) -> Bool {
        guard aside != nil, case .retrying(let next) = status else { return false }
        return timers[.retry(task.id, attempt: next)] != nil
    }
}

/// Why, and since when, a task waits aside (``QueuedTask/aside``).
package struct AsideWait: Sendable, Hashable {
    /// When its first attempt that could not be made was answered: it waits aside at most the
    /// age limit from here.
    public var since: JournalTime
    public var reason: NotSentReason

    public init(since: JournalTime, reason: NotSentReason) {
        self.since = since
        self.reason = reason
    }
}

/// A call made and not yet resolved.
package struct PendingCall: Sendable, Hashable {
    public var name: PublicCall.Name
    public var madeAt: JournalTime
    public var caller: UInt64
    /// The project the SDK was on when the call was made.
    public var projectAtCall: ProjectFingerprint?
}

/// A monotonic reading and the journal's time at that reading.
package struct ClockAnchor: Sendable, Hashable {
    public var monotonic: MonotonicReading
    public var time: JournalTime

    public init(monotonic: MonotonicReading, time: JournalTime) {
        self.monotonic = monotonic
        self.time = time
    }
}

/// JWT refresh bookkeeping for one project's current instance.
package struct AuthState: Sendable, Hashable {
    public var refreshesUsed = 0
    /// The refresh request in flight, if any.
    public var refreshing: UInt64?
}

/// What waits on a durability request.
package enum DurabilityWait: Sendable, Hashable {
    /// A `flush()` call.
    case flush(CallID)
    /// A teardown waiting for the outgoing disable to be durable.
    case teardownDisable(SwitchID)
}

/// A module's lifecycle in the current instance.
package struct ModuleLifecycle: Sendable, Hashable {
    public var initialized = false
    public var started = false
    public var deinitialized = false
    public var generation: UInt64 = 0
}

/// A tracked link being resolved for a `handleUniversalLink` call, by the instance
/// `generation` of `project`: its result is refused once that instance is gone.
package struct LinkJob: Sendable, Hashable {
    public var call: CallID
    public var url: String
    public var project: ProjectFingerprint
    public var generation: UInt64
}

/// An awaited module hook in progress.
package struct PendingHook: Sendable, Hashable {
    public var module: String
    public var signal: ModuleSignal
    public var startedAt: JournalTime
}

extension SDKState {
    /// The call pending under `call`; nil when none is. What `pendingCalls[call]` reads, for
    /// other modules: compiled here, where the table's value type is known, while from another
    /// module the generic table's lookup runs unspecialized, most of its work looking up the
    /// type's metadata.
    package func pendingCall(_ call: CallID) -> PendingCall? {
        pendingCalls[call]
    }

    /// Every call id the state still refers to: pending calls, tasks made for calls, calls held
    /// by the gate or for an unknown user, switch requests, link resolutions.
    public var callIDsInUse: Set<UUID> {
        var ids = Set(pendingCalls.keys.map(\.uuid))
        for queued in tasks.values { for call in queued.task.calls { ids.insert(call.uuid) } }
        for held in switching.gate { ids.insert(held.call.id.uuid) }
        for held in heldEvents { ids.insert(held.call.uuid) }
        for request in switching.queue { ids.formUnion(request.calls.map(\.uuid)) }
        if let run = switching.inFlight { ids.formUnion(run.calls.map(\.uuid)) }
        for job in linkJobs.values { ids.insert(job.call.uuid) }
        return ids
    }
}
