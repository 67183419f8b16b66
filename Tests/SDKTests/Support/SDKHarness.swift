import Foundation
import Journal
import Locking
import Sandbox
import TestSupport
@testable import SDK
import SDKTesting

/// An SDK instance wired to a loopback sandbox backend, a manual clock and its own temporary
/// directory: what every end-to-end test starts from.
final class SDKHarness: Sendable {
    static let usKey = "us-key-0001"
    static let euKey = "eu-key-0002"
    static let otherUSKey = "us-key-0003"

    let sandbox: SandboxBackend
    let clock: ManualClock
    let directory: String
    let sdk: EngagementSDK
    let modules: [any SDKModule]
    let endpoints: RegionEndpoints

    init(rules: EngineRules = EngineRules(), modules: [any SDKModule]? = nil, directory: String? = nil,
         sandbox: SandboxBackend? = nil, clock: ManualClock? = nil, ids: SequentialIDs = SequentialIDs(),
         observer: (@Sendable (SDKState, UInt64) -> Void)? = nil, storage: any JournalStorage = PosixStorage(),
         callbackQueue: DispatchQueue? = nil, keepsDirectory: Bool = false, knownProjects: [Project] = [],
         transport: (any Transport)? = nil, segmentRecords: Int? = nil, groupCommit: GroupCommit? = nil,
         retentionAge: Duration? = .seconds(30 * 86_400), configure: ((inout SDKConfiguration) -> Void)? = nil) throws {
        self.keepsDirectory = keepsDirectory
        let sandbox = try sandbox ?? SandboxBackend(projects: [
            SandboxProject(name: "us", apiKey: Self.usKey, region: "us"),
            SandboxProject(name: "eu", apiKey: Self.euKey, region: "eu"),
            SandboxProject(name: "us2", apiKey: Self.otherUSKey, region: "us"),
        ])
        self.sandbox = sandbox
        self.clock = clock ?? ManualClock()
        self.directory = directory ?? TemporaryDirectory.uniquePath("sdk")
        self.modules = modules ?? [LifecycleModule(name: BuiltInModules.inApp, notifications: ["foreground"]),
                                   LifecycleModule(name: BuiltInModules.embedded), LifecycleModule(name: BuiltInModules.push)]
        endpoints = RegionEndpoints(us: sandbox.baseURL(region: "us"), eu: sandbox.baseURL(region: "eu"))
        var configuration = SDKConfiguration(
            storageDirectory: self.directory, clock: self.clock, transport: transport ?? PatientTransport(base: URLSessionTransport()),
            makeCallID: { ids.next() }, modules: self.modules, rules: rules, regionEndpoints: endpoints,
            journalStorage: storage, knownProjects: knownProjects)
        if let callbackQueue { configuration.callbackQueue = callbackQueue }
        if let segmentRecords { configuration.journalSegmentRecords = segmentRecords }
        if let groupCommit { configuration.groupCommit = groupCommit }
        configuration.journalRetentionAge = retentionAge
        configuration.stateObserver = observer
        configure?(&configuration)
        sdk = try EngagementSDK(configuration: configuration)
    }

    /// A second SDK over the same directory (a restart), sharing the sandbox and clock.
    func restarted(rules: EngineRules = EngineRules(), modules: [any SDKModule]? = nil) throws -> SDKHarness {
        sdk.shutdown()
        return try SDKHarness(rules: rules, modules: modules, directory: directory, sandbox: sandbox, clock: clock, keepsDirectory: true)
    }

    /// Set on a harness made by ``restarted(rules:modules:)``: the first harness removes the directory.
    private let keepsDirectory: Bool

    var us: Project { Project(apiKey: Self.usKey, config: ProjectConfig(region: .us))! }
    var eu: Project { Project(apiKey: Self.euKey, config: ProjectConfig(region: .eu))! }
    var us2: Project { Project(apiKey: Self.otherUSKey, config: ProjectConfig(region: .us))! }

    /// The journal's facts, decoded, with their sequence numbers.
    func facts() throws -> [(sequence: UInt64, fact: Fact)] {
        let cursor = try JournalReader(directory: directory + "/journal").records(mode: .salvage)
        var facts: [(UInt64, Fact)] = []
        while let record = try cursor.next() {
            if record.isSnapshot { continue }
            facts.append((record.sequence, try FactCodec.decode(kind: record.kind, payload: record.payload)))
        }
        return facts
    }

    /// Requests the sandbox accepted for `project`, by endpoint.
    func received(by project: String) -> [ReceivedRequest] {
        sandbox.requests(project: project).filter { $0.outcome == .accepted }
    }

    /// The names of the tracked events `project` accepted (or in `requests`), in arrival order,
    /// whether each came alone (`events/track`) or in a bulk request (`events/trackBulk`).
    func eventNames(receivedBy project: String, in requests: [ReceivedRequest]? = nil) -> [String] {
        (requests ?? received(by: project)).flatMap(\.trackedEvents).map(\.eventName)
    }

    deinit {
        sdk.shutdown()
        if !keepsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The facts, once the journal is closed (shuts the SDK down).
    func closedFacts() throws -> [Fact] {
        sdk.shutdown()
        return try facts().map(\.fact)
    }
}

/// Call ids 1, 2, 3 ... so journals are reproducible.
final class SequentialIDs: Sendable {
    private let counter: Locked<UInt64>

    /// Ids `start`, `start + 1`, ... (1, 2, 3 ... by default).
    init(startingAt start: UInt64 = 1) {
        counter = Locked(start - 1)
    }

    func next() -> UUID {
        let value = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        return CallIDGenerator.sequentialUUID(value)
    }
}

extension SDKHarness {
    /// A harness whose network the test turns off and on (SDKTesting's `SwitchableNetwork`, over
    /// the patient URLSession transport to the sandbox).
    static func withSwitchableNetwork(rules: EngineRules = EngineRules()) throws -> (SDKHarness, SwitchableNetwork) {
        let network = SwitchableNetwork(base: PatientTransport(base: URLSessionTransport()))
        return (try SDKHarness(rules: rules, transport: network), network)
    }

    /// The offline tests' start: ada signed in on project "us" (both calls answered), then the
    /// network gone.
    static func adaOnUSGoneOffline(rules: EngineRules = EngineRules()) async throws -> (SDKHarness, SwitchableNetwork) {
        let (harness, network) = try withSwitchableNetwork(rules: rules)
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        network.goOffline()
        return (harness, network)
    }
}
