import Journal

// The payloads of input facts: what the world told the SDK. Small records, grouped here.

/// The SDK object came up over this journal (first start or restart).
package struct EngineStart: Sendable, Hashable {
    /// The SDK's version, e.g. `0.1.0`.
    public var sdkVersion: String
    /// Whether the journal already held records (a restart).
    public var restored: Bool
    /// Engine options decisions depend on (recorded so `replay recheck` decides alike).
    public var options: EngineRules
    /// The modules plugged in, in the order they receive events.
    public var modules: [ModuleDescriptor]
    /// The monotonic clock when the engine started, so that a relaunch in the same boot carries
    /// the journal's time on exactly (nil in journals older than the two clocks).
    public var clock: MonotonicReading?

    public init(sdkVersion: String, restored: Bool, options: EngineRules, modules: [ModuleDescriptor] = [],
                clock: MonotonicReading? = nil) {
        self.sdkVersion = sdkVersion
        self.restored = restored
        self.options = options
        self.modules = modules
        self.clock = clock
    }
}

/// A module as decisions see it: its name and the system notifications it asked for.
package struct ModuleDescriptor: Sendable, Hashable {
    public var name: String
    public var notifications: [String]

    public init(name: String, notifications: [String]) {
        self.name = name
        self.notifications = notifications
    }
}

/// Engine-wide rules decisions depend on. Each value has a range, checked when the SDK is made
/// (`SDKConfiguration.Ranges`, a `ConfigurationError` naming the value otherwise): the gate's and
/// the queue's capacities are positive and at most their defaults (what one snapshot record can
/// hold), the bounds 1 ms to an hour, the delivery age limit a minute to a year.
public struct EngineRules: Sendable, Hashable {
    /// The most calls the gate holds during a switch (2,048 by default, and at most); more are
    /// rejected, never dropped silently.
    public var gateCapacity: Int
    /// The most bytes of call arguments the gate holds (256 KiB by default, and at most).
    public var gateByteCapacity: Int
    /// The most events (calls) the delivery queue holds, in tasks and their batches, events held
    /// for an unknown user included (16,384 by default, and at most).
    public var queueCapacity: Int
    /// The most bytes the delivery queue takes (3.25 MiB by default, and at most): its requests' bodies,
    /// addresses and users, with an allowance per task and per event for what the SDK keeps
    /// besides (`DeliveryTask.footprint`), events held for an unknown user included. With the gate's
    /// bound and ``CallLimits``, it keeps every state's snapshot under the journal's record limit
    /// (docs/ARCHITECTURE.md, "Bounds"). A `disableDevice` is never refused by it.
    public var queueByteCapacity: Int
    /// The most events one `events/trackBulk` request carries: `track` calls made while their
    /// project's queue is busy join the last queued track's batch up to this many. 1 sends every
    /// event alone.
    public var bulkEventLimit: Int
    /// The most body bytes of events one bulk request carries.
    public var bulkByteLimit: Int
    /// How long a teardown waits for the outgoing disable to be durably queued.
    public var disableDurabilityBoundMilliseconds: Int64
    /// How long an async module hook may run before it is reported as overrunning.
    public var moduleHookBoundMilliseconds: Int64
    /// What happens to the outgoing project's queued events at a switch.
    public var pendingEvents: PendingEventsRule
    /// How long the app's auth provider may take to answer a request for a JWT; past it the
    /// request is answered as failed (a late answer is ignored).
    public var authProviderBoundMilliseconds: Int64
    /// How long a request may wait in the offline queue: one older than this is discarded as
    /// `DiscardReason.expired(ageLimit:)` when its turn comes (a switch's or logout's kept
    /// `disableDevice` excepted: it stops another project messaging this device). Seven days by
    /// default (docs/ARCHITECTURE.md, "Offline").
    public var deliveryAgeLimitMilliseconds: Int64

    public init(gateCapacity: Int = 2_048, gateByteCapacity: Int = 256 << 10, queueCapacity: Int = 16_384,
                queueByteCapacity: Int = 3_328 << 10, disableDurabilityBoundMilliseconds: Int64 = 2_000,
                moduleHookBoundMilliseconds: Int64 = 2_000, pendingEvents: PendingEventsRule = .purge,
                authProviderBoundMilliseconds: Int64 = 10_000, bulkEventLimit: Int = 500, bulkByteLimit: Int = 512 << 10,
                deliveryAgeLimitMilliseconds: Int64 = 7 * 24 * 3_600_000) {
        self.gateCapacity = gateCapacity
        self.gateByteCapacity = gateByteCapacity
        self.queueCapacity = queueCapacity
        self.queueByteCapacity = queueByteCapacity
        self.disableDurabilityBoundMilliseconds = disableDurabilityBoundMilliseconds
        self.moduleHookBoundMilliseconds = moduleHookBoundMilliseconds
        self.pendingEvents = pendingEvents
        self.authProviderBoundMilliseconds = authProviderBoundMilliseconds
        self.bulkEventLimit = bulkEventLimit
        self.bulkByteLimit = bulkByteLimit
        self.deliveryAgeLimitMilliseconds = deliveryAgeLimitMilliseconds
    }
}

/// What a switch does with the outgoing project's queued events.
public enum PendingEventsRule: Sendable, Hashable {
    /// Discard them (keeping queued disableDevice tasks), as the reference implementation does.
    case purge
    /// Try to deliver them to the outgoing project first, for at most this long; what is left
    /// is discarded and reported.
    case deliverToOutgoing(timeoutMilliseconds: Int64)
    /// Keep them, aimed at the outgoing project as a kept disable is (its key from the keyring,
    /// its region and endpoint, each request with its own user's JWT from that project's auth
    /// provider), and deliver them whenever the network allows, within the age limit. Nothing
    /// queued before the switch is lost to it; the switch does not wait for them.
    case keepForOutgoing
}

/// A public call arrived in the mailbox.
package struct ReceivedCall: Sendable, Hashable {
    public var id: CallID
    /// The calling thread, so per-thread call order can be checked afterwards.
    public var caller: UInt64
    public var call: PublicCall

    public init(id: CallID, caller: UInt64, call: PublicCall) {
        self.id = id
        self.caller = caller
        self.call = call
    }
}

/// An HTTP exchange for a task ended.
package struct TransportCompletion: Sendable, Hashable {
    public var task: TaskID
    public var attempt: Int
    public var outcome: TransportOutcome
    /// The events of a bulk request the answer refused while accepting the rest.
    public var refusedEvents: [RefusedEvent]
    /// How many of the answer's messages were dropped: past what the fetch asked for, or with
    /// an id over ``CallLimits/identifierBytes``.
    public var droppedMessageIDs: Int

    public init(task: TaskID, attempt: Int, outcome: TransportOutcome, refusedEvents: [RefusedEvent] = [], droppedMessageIDs: Int = 0) {
        self.task = task
        self.attempt = attempt
        self.outcome = outcome
        self.refusedEvents = refusedEvents
        self.droppedMessageIDs = droppedMessageIDs
    }
}

/// What came back, as much as decisions need.
package enum TransportOutcome: Sendable, Hashable {
    /// A response: its status, the API's `code` and `msg` fields when the body had them (the
    /// message with any API key it quoted masked), and for message fetches the ids returned.
    case response(status: Int, code: String?, messageIDs: [String], message: String? = nil)
    /// No response at all.
    case networkError(String)
    /// Nothing was sent: the request could not be made (``NotSentReason``). Never a sign of the
    /// network's state.
    case notSent(NotSentReason)
}

/// Why an attempt never left the device.
package enum NotSentReason: Sendable, Hashable {
    /// The auth provider gave no JWT for the task's user: it failed, or did not answer within its
    /// bound (the reason). It may give one later (it was offline, its server was down).
    case noToken(String)
    /// The auth provider said no JWT can ever be had for the task's user: they signed out
    /// (`AuthProviderError.userSignedOut`). The reason is what it said.
    case tokenRefused(String)
    /// The keyring holds no API key for the task's project, and the app gave none in this process.
    case noAPIKey
    /// The task's project needs JWTs and the app gave no auth provider for it in this process
    /// (not in `SDKConfiguration.knownProjects`, not with an `initialize` or `switchProject`).
    case noAuthProvider
    /// The task's endpoint does not make a URL (the reason).
    case invalidEndpoint(String)
}

/// A timer the SDK set went off.
package enum TimerPurpose: Sendable, Hashable {
    case retry(TaskID, attempt: Int)
    case teardownBound(SwitchID, TeardownStepKind)
    case moduleHookBound(hook: UInt64)
}

/// Everything appended up to a durability request is durable.
package struct DurabilityConfirmation: Sendable, Hashable {
    public var request: UInt64
    /// Nil when the journal could not make it durable (the reason).
    public var failure: String?

    public init(request: UInt64, failure: String?) {
        self.request = request
        self.failure = failure
    }
}

/// A module hook returned.
package struct ModuleHookCompletion: Sendable, Hashable {
    public var hook: UInt64
    /// Nil when the module handled the event; what went wrong otherwise.
    public var failure: String?

    public init(hook: UInt64, failure: String? = nil) {
        self.hook = hook
        self.failure = failure
    }
}

/// The auth provider answered a request for a fresh JWT. The token itself never enters the
/// journal.
package struct AuthTokenReceipt: Sendable, Hashable {
    public var request: UInt64
    public var project: ProjectFingerprint
    /// Nil when a token arrived; the reason otherwise.
    public var failure: String?
    /// Whether the provider said no token can ever be had for the user (they signed out), rather
    /// than failing in a way that may pass.
    public var refused: Bool

    public init(request: UInt64, project: ProjectFingerprint, failure: String?, refused: Bool = false) {
        self.request = request
        self.project = project
        self.failure = failure
        self.refused = refused
    }
}

/// What resolving a tracked link gave: the destination and the attribution its redirect
/// carried, or why it failed.
package struct LinkResolution: Sendable, Hashable {
    public var job: UInt64
    /// Where the link leads (the redirect's `Location`), when it resolved.
    public var destination: String?
    /// The campaign, template and message the link was tracked for, when its answer said.
    public var attribution: AttributionInfo?
    /// Nil when the link resolved; what went wrong otherwise.
    public var failure: String?

    public init(job: UInt64, destination: String?, attribution: AttributionInfo?, failure: String?) {
        self.job = job
        self.destination = destination
        self.attribution = attribution
        self.failure = failure
    }
}

/// A stretch of facts the journal could not record.
package struct JournalGap: Sendable, Hashable {
    /// How many facts were decided but are not in the journal: from the first one that did not
    /// become durable (records the failed writer had numbered, staged or written, and that the
    /// reopened journal does not hold) to the last one decided before recording resumed.
    public var lostFacts: UInt64
    /// When the first lost fact was decided (when the journal failed, if none was lost), and
    /// when recording resumed.
    public var from: JournalTime
    public var to: JournalTime
    /// The write error that stopped the journal.
    public var reason: String
    /// The sequence number the first lost fact had, or would have had: the one after the last
    /// record the journal kept. Numbers from it up to the snapshot that precedes this gap are in
    /// no segment (docs/FORMAT.md). Nil in journals written before it was recorded.
    public var firstLostSequence: UInt64?

    public init(lostFacts: UInt64, from: JournalTime, to: JournalTime, reason: String, firstLostSequence: UInt64? = nil) {
        self.lostFacts = lostFacts
        self.from = from
        self.to = to
        self.reason = reason
        self.firstLostSequence = firstLostSequence
    }
}
