import Dispatch
import Foundation
import Journal
import SDKCore

/// How an ``EngagementSDK`` instance is wired: where it keeps its journal and keyring, and the
/// clock, transport, ids and queues it uses. Everything nondeterministic is injected here.
///
/// A value: an instance copies it when it is made, and changing it afterwards changes nothing.
public struct SDKConfiguration: Sendable {
    /// The instance's directory: its journal (`journal/`) and keyring (`keyring`, mode 0600) live
    /// here (created, mode 0700). Each instance needs its own, or a ``processRole`` of its own in
    /// it: two instances of one role on one directory are refused (the journal's lock).
    public var storageDirectory: String
    /// Which process of the app this instance runs in, when the app and its extensions (a widget,
    /// a notification service extension) share ``storageDirectory`` in an App Group container:
    /// each role writes a journal and a keyring of its own, `journal/` and `keyring` for `app` (the
    /// default, the layout of an instance without extensions), `journal-ROLE/` and `keyring-ROLE`
    /// for any other. `replay` reads such a directory as one timeline, a lane per role. 1 to 32
    /// characters `a`-`z`, `0`-`9` and `-`, beginning with a letter (``validate()``).
    ///
    /// The journal's directory is locked while the instance writes it (an advisory `flock`,
    /// given back while the app is suspended: docs/PLATFORMS.md, "App extensions"): a second
    /// instance of the same role on the same directory, in this process or another, fails to
    /// start with a `JournalLockError` naming the holder.
    public var processRole: String
    /// The instance's only source of time: it stamps inputs and runs timers (retries, bounds). Read
    /// on the engine thread and by ``EngagementSDK/settle(timeout:)`` on the caller's.
    public var clock: any SDKClock
    /// Sends the instance's HTTP requests. Called on the engine thread: it must return at once and
    /// call its completion exactly once, on any thread.
    public var transport: any Transport
    /// Makes the id of each public call. Called on the calling thread of each call, possibly from
    /// several threads at once: it must be thread-safe and return a fresh id each time (ids the
    /// restored journal still uses are skipped). By default a ``CallIDGenerator`` of the
    /// configuration's own.
    public var makeCallID: @Sendable () -> UUID {
        get { customCallIDs ?? callIDGenerator.next }
        set { customCallIDs = newValue }
    }
    /// The app's own source of call ids, if it gave one; else ids come from ``callIDGenerator``
    /// straight as call ids (no `UUID` made and read back at every call).
    private(set) var customCallIDs: (@Sendable () -> UUID)?
    let callIDGenerator = CallIDGenerator()
    /// Where completions and switch results run. The default is a serial queue the SDK owns
    /// (nothing services the main queue in a program without a main loop); apps with a main loop
    /// may pass `.main`. Completions decided together (the calls one bulk request carried) reach
    /// the queue as one work item and run one after the other, in call order; on a concurrent
    /// queue, completions decided apart may run at the same time. The SDK never waits for this
    /// queue, so a completion may call the SDK, blocking getters included.
    public var callbackQueue: DispatchQueue
    /// Modules plugged into every instance, in the order they hear events: at most
    /// `CallLimits.modules`, each named uniquely, its name, version and notification names
    /// within `CallLimits` (``validate()``).
    public var modules: [any SDKModule]
    /// The engine's bounds: the switch gate, the delivery queue, how long teardown steps, module
    /// hooks and the auth provider may take, what a switch does with queued events. Each within
    /// its range (``Ranges``): the gate's and the queue's at most their defaults.
    public var rules: EngineRules
    /// The base URL of each ``DataRegion`` (production by default; tests point them at a sandbox).
    public var regionEndpoints: RegionEndpoints
    /// The journal's group commit; durable by default (fdatasync per 64 records or 2 ms). At most
    /// 65,536 records and an hour a group.
    public var groupCommit: GroupCommit
    /// A journal segment is sealed, and the next begins with a snapshot, past this many bytes
    /// (1 KiB to 1 GiB).
    public var journalSegmentBytes: Int
    /// A segment is sealed after this many facts too (with the few of the input that reached the
    /// bound), so a restart folds at most about this many on top of the latest snapshot. While a
    /// burst keeps the state large (a snapshot of over 64 KiB), a due segment waits for the state
    /// to drain, up to twice this many facts (and twice ``journalSegmentBytes``): a restart then
    /// folds at most about twice this many. 16 to 10,000,000.
    public var journalSegmentRecords: Int
    /// Whole old journal segments are deleted while the journal is larger than this (the segment
    /// being written never is); nil keeps everything. At least ``journalSegmentBytes``, at most 1 TiB.
    public var journalRetainedBytes: Int?
    /// Whole journal segments whose records are all older than this are deleted, whatever the
    /// byte budget; nil keeps them for as long as ``journalRetainedBytes`` allows. 30 days by
    /// default: long enough for a support request about last week's problem to find its
    /// journal, short enough that personal data does not stay for months on a quiet device
    /// (a busy one reaches the byte budget first). No record younger than this is deleted; none
    /// stays more than about half of it longer (the segment being written is begun anew once it
    /// is half this old, and the check runs at most an hour apart). An hour to ten years (3,650
    /// days): a shorter age would begin a segment at almost every input.
    public var journalRetentionAge: Duration?
    /// The journal's file operations (substitute to inject faults or simulate power loss).
    public var journalStorage: any JournalStorage
    /// The data protection class of the journal's directory and files (iOS, iPadOS, tvOS, watchOS,
    /// visionOS; a no-op on macOS and Linux: ``FileProtection``). By default
    /// ``FileProtection/completeUntilFirstUserAuthentication``: an engagement SDK records and
    /// delivers while the app runs in the background on a locked device (a push received, a
    /// background refresh, a location update), and under ``FileProtection/complete`` every write
    /// then fails and the journal stops; this class still keeps the journal's personal data
    /// encrypted from the device's start until the user first unlocks it. Choose `complete` only
    /// for an app that never runs the SDK in the background.
    public var journalProtection: FileProtection
    /// The data protection class of the keyring file (as ``journalProtection``). By default
    /// ``FileProtection/completeUntilFirstUserAuthentication``: the keyring is read when an
    /// instance is made, which a launch in the background on a locked device does too, and
    /// written when a project's key is stored.
    public var keyringProtection: FileProtection
    /// Whether device backups (iCloud and computer backups on iOS, Time Machine on macOS) leave the
    /// journal out; a no-op on Linux. By default true: the journal is a device-local record of
    /// personal data and of this install's own state (its users, its pending deliveries), which
    /// should neither leave the device in a backup nor be restored into another install and
    /// deliver there as its own.
    public var excludesJournalFromBackup: Bool
    /// Whether device backups leave the keyring out (as ``excludesJournalFromBackup``). By default
    /// true: it holds API keys, which the app supplies again with its projects, and belongs with
    /// the journal that names them.
    public var excludesKeyringFromBackup: Bool
    /// The version sent in requests and recorded in the journal (``EngagementSDK/version`` by
    /// default). 1 to `CallLimits.sdkVersionBytes` bytes, no control character: it is sent in a header.
    public var sdkVersion: String
    /// Sees the state and the last journal sequence after every input (tests compare it with a
    /// fresh fold of the journal). Runs on the engine thread; must be quick.
    var stateObserver: (@Sendable (SDKState, UInt64) -> Void)?
    /// Applies the data-at-rest options to the files the instance makes (tests substitute one that
    /// records what it was asked).
    package var storedItemAttributes: any StoredItemAttributeSetter = SystemStoredItemAttributes()
    /// Replaces the journal as the place facts are recorded (the `bench` executable's peers
    /// only: an SDK built with it keeps no journal for `replay`).
    package var recorderOverride: (any FactRecorder)?

    /// Projects this install may have been on before, with their auth providers. A task kept for
    /// one of them across a relaunch on another project (the outgoing project's `disableDevice`)
    /// authenticates with its provider; without it, a JWT project's kept disable cannot get a token
    /// and fails. Keys come from the keyring either way; nothing here is journaled.
    public var knownProjects: [Project]

    /// How many inputs (calls, notifications) the SDK holds in memory while its files cannot be
    /// opened at launch (``EngagementSDK/storageStatus``); one past it is refused at once with
    /// `CallFailure.rejected(_:)`. 1,024 by default; ``Ranges/storageHoldCapacity``.
    public var storageHoldCapacity = 1_024
    /// How many bytes of calls (each counted by its journal record's payload) that hold keeps
    /// at most; a call past it is refused the same way. 1 MiB by default;
    /// ``Ranges/storageHoldByteCapacity``.
    public var storageHoldByteCapacity = 1 << 20
    /// How often, on ``clock``'s monotonic time, the SDK tries again to open files it could not
    /// open at launch, besides each ``EngagementSDK/protectedDataDidBecomeAvailable()``. 30 s by
    /// default; ``Ranges/storageRetryInterval``.
    public var storageRetryInterval = Duration.seconds(30)

    /// A configuration for an instance in `storageDirectory`; every other parameter has the
    /// production default.
    public init(
        storageDirectory: String,
        clock: any SDKClock = SystemClock(),
        transport: any Transport = URLSessionTransport(),
        makeCallID: (@Sendable () -> UUID)? = nil,
        callbackQueue: DispatchQueue = DispatchQueue(label: "engagement-sdk.callbacks"),
        modules: [any SDKModule] = BuiltInModules.standard(),
        rules: EngineRules = EngineRules(),
        regionEndpoints: RegionEndpoints = .production,
        groupCommit: GroupCommit = GroupCommit(),
        journalSegmentBytes: Int = 4 << 20,
        journalSegmentRecords: Int = 20_000,
        journalRetainedBytes: Int? = 64 << 20,
        journalRetentionAge: Duration? = .seconds(30 * 24 * 3_600),
        journalStorage: any JournalStorage = PosixStorage(),
        journalProtection: FileProtection = .completeUntilFirstUserAuthentication,
        keyringProtection: FileProtection = .completeUntilFirstUserAuthentication,
        excludesJournalFromBackup: Bool = true,
        excludesKeyringFromBackup: Bool = true,
        sdkVersion: String = EngagementSDK.version,
        knownProjects: [Project] = [],
        processRole: String = SDKConfiguration.appRole
    ) {
        self.storageDirectory = storageDirectory
        self.processRole = processRole
        self.clock = clock
        self.transport = transport
        customCallIDs = makeCallID
        self.callbackQueue = callbackQueue
        self.modules = modules
        self.rules = rules
        self.regionEndpoints = regionEndpoints
        self.groupCommit = groupCommit
        self.journalSegmentBytes = journalSegmentBytes
        self.journalSegmentRecords = journalSegmentRecords
        self.journalRetainedBytes = journalRetainedBytes
        self.journalRetentionAge = journalRetentionAge
        self.journalStorage = journalStorage
        self.journalProtection = journalProtection
        self.keyringProtection = keyringProtection
        self.excludesJournalFromBackup = excludesJournalFromBackup
        self.excludesKeyringFromBackup = excludesKeyringFromBackup
        self.sdkVersion = sdkVersion
        self.knownProjects = knownProjects
    }

    /// The default ``processRole``: the app's own process.
    public static let appRole = "app"
    /// The role's suffix of its file names: none for the app, `-ROLE` for any other.
    private var roleSuffix: String { processRole == Self.appRole ? "" : "-" + processRole }
    var journalDirectory: String { storageDirectory + "/journal" + roleSuffix }
    var keyringPath: String { storageDirectory + "/keyring" + roleSuffix }
    /// What the journal's directory and files are given.
    var journalAttributes: StoredItemAttributes {
        StoredItemAttributes(protection: journalProtection, excludedFromBackup: excludesJournalFromBackup)
    }
    /// What each keyring file is given.
    var keyringAttributes: StoredItemAttributes {
        StoredItemAttributes(protection: keyringProtection, excludedFromBackup: excludesKeyringFromBackup)
    }
}
