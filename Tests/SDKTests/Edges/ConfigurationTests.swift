import Foundation
import Journal
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// Configuration values are checked when the SDK is made: a value outside its range is a
/// `ConfigurationError` naming it, its value and its range, before a file is made or a thread
/// started; no value traps, then or later.
@Suite("Configuration values", .timeLimit(.minutes(1)))
struct ConfigurationTests {
    /// A module with a name, a version and notification names of the test's choosing.
    final class NamedModule: SDKModule {
        let info: ModuleInfo
        let notificationNames: [String]

        init(_ name: String, version: String = "1.0", notifications: [String] = []) {
            info = ModuleInfo(name: name, version: version)
            notificationNames = notifications
        }

        func process(signal: ModuleSignal, context: ModuleContext) throws {}
    }

    /// Each invalid configuration, by what it changes, with the field its error names.
    static let invalid: [String: (field: String, change: @Sendable (inout SDKConfiguration) -> Void)] = [
        "retention age .seconds(.max)": ("journalRetentionAge", { $0.journalRetentionAge = .seconds(Int64.max) }),
        "retention age zero": ("journalRetentionAge", { $0.journalRetentionAge = .zero }),
        "retention age negative": ("journalRetentionAge", { $0.journalRetentionAge = .seconds(-60) }),
        "retention age 59 minutes": ("journalRetentionAge", { $0.journalRetentionAge = .seconds(59 * 60) }),
        "retention age 11 years": ("journalRetentionAge", { $0.journalRetentionAge = .seconds(11 * 365 * 86_400) }),
        "segment bytes 0": ("journalSegmentBytes", { $0.journalSegmentBytes = 0 }),
        "segment bytes Int.max": ("journalSegmentBytes", { $0.journalSegmentBytes = .max }),
        "segment records -1": ("journalSegmentRecords", { $0.journalSegmentRecords = -1 }),
        "retained bytes below a segment": ("journalRetainedBytes", { $0.journalRetainedBytes = 1_000 }),
        "group commit of 0 records": ("groupCommit.maxRecords", { $0.groupCommit = GroupCommit(maxRecords: 0, maxDelay: nil) }),
        "group commit delay negative": ("groupCommit.maxDelay", { $0.groupCommit = GroupCommit(maxRecords: 64, maxDelay: .seconds(-1)) }),
        "group commit delay .seconds(.max)": ("groupCommit.maxDelay", { $0.groupCommit = GroupCommit(maxRecords: 64, maxDelay: .seconds(Int64.max)) }),
        "gate of 0 calls": ("rules.gateCapacity", { $0.rules.gateCapacity = 0 }),
        "gate past a snapshot": ("rules.gateCapacity", { $0.rules.gateCapacity = 4_096 }),
        "gate bytes negative": ("rules.gateByteCapacity", { $0.rules.gateByteCapacity = -1 }),
        "queue of Int.max events": ("rules.queueCapacity", { $0.rules.queueCapacity = .max }),
        "queue bytes past a snapshot": ("rules.queueByteCapacity", { $0.rules.queueByteCapacity = 64 << 20 }),
        "bulk of 0 events": ("rules.bulkEventLimit", { $0.rules.bulkEventLimit = 0 }),
        "bulk bytes 0": ("rules.bulkByteLimit", { $0.rules.bulkByteLimit = 0 }),
        "storage hold of 0 inputs": ("storageHoldCapacity", { $0.storageHoldCapacity = 0 }),
        "storage hold of 1 GiB": ("storageHoldByteCapacity", { $0.storageHoldByteCapacity = 1 << 30 }),
        "storage retry every 0 s": ("storageRetryInterval", { $0.storageRetryInterval = .zero }),
        "storage retry every .seconds(.max)": ("storageRetryInterval", { $0.storageRetryInterval = .seconds(Int64.max) }),
        "disable bound negative": ("rules.disableDurabilityBoundMilliseconds", { $0.rules.disableDurabilityBoundMilliseconds = -1 }),
        "module hook bound Int64.max": ("rules.moduleHookBoundMilliseconds", { $0.rules.moduleHookBoundMilliseconds = .max }),
        "auth bound 0": ("rules.authProviderBoundMilliseconds", { $0.rules.authProviderBoundMilliseconds = 0 }),
        "delivery age Int64.min": ("rules.deliveryAgeLimitMilliseconds", { $0.rules.deliveryAgeLimitMilliseconds = .min }),
        "pending events timeout 0": ("rules.pendingEvents.deliverToOutgoing.timeoutMilliseconds",
                                     { $0.rules.pendingEvents = .deliverToOutgoing(timeoutMilliseconds: 0) }),
        "SDK version empty": ("sdkVersion", { $0.sdkVersion = "" }),
        "SDK version of 1 MiB": ("sdkVersion", { $0.sdkVersion = String(repeating: "9", count: 1 << 20) }),
        "SDK version with a newline": ("sdkVersion", { $0.sdkVersion = "1.0\nX-Injected: yes" }),
        "two modules of one name": ("modules[1].info.name", { $0.modules = [NamedModule("push"), NamedModule("push")] }),
        "a module name of 1 MiB": ("modules[0].info.name", { $0.modules = [NamedModule(String(repeating: "m", count: 1 << 20))] }),
        "a module version of 1 MiB": ("modules[0].info.version", { $0.modules = [NamedModule("m", version: String(repeating: "9", count: 1 << 20))] }),
        "a notification name of 1 MiB": ("modules[0].notificationNames[1]",
                                         { $0.modules = [NamedModule("m", notifications: ["foreground", String(repeating: "n", count: 1 << 20)])] }),
        "65 modules": ("modules.count", { $0.modules = (0..<65).map { NamedModule("m\($0)") } }),
        "a region endpoint that is not http(s)": ("regionEndpoints.eu", { $0.regionEndpoints.eu = URL(string: "ftp://example.com/api/")! }),
        "a known project that retries in a loop": ("knownProjects[0].config", { configuration in
            var config = ProjectConfig()
            config.retryPolicy.baseDelayMilliseconds = 0
            configuration.knownProjects = [Project(apiKey: "k", config: config)!]
        }),
    ]

    static func configuration(in directory: String) -> SDKConfiguration {
        SDKConfiguration(storageDirectory: directory, clock: ManualClock(), modules: [])
    }

    @Test("a value outside its range throws before anything is made, naming the value and its range", arguments: invalid.keys.sorted())
    func invalidValue(name: String) throws {
        let (field, change) = try #require(Self.invalid[name])
        let directory = TemporaryDirectory.uniquePath("configuration")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = Self.configuration(in: directory)
        change(&configuration)
        let error = #expect(throws: ConfigurationError.self) { try EngagementSDK(configuration: configuration) }
        #expect(error?.field == field, "\(String(describing: error))")
        #expect(error.map { $0.description.hasPrefix("SDKConfiguration.\(field) is ") && $0.description.contains("; allowed: ") } == true)
        #expect(error.map { $0.description.utf8.count < 512 } == true, "the value is described, not repeated")
        #expect(!FileManager.default.fileExists(atPath: directory), "nothing is made")
    }

    @Test("the ends of each range are accepted, and the SDK runs on them")
    func rangesAreInclusive() async throws {
        let directory = TemporaryDirectory.uniquePath("configuration")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = Self.configuration(in: directory)
        configuration.journalRetentionAge = .seconds(3_600)
        configuration.rules = EngineRules(gateCapacity: 2_048, gateByteCapacity: 256 << 10, queueCapacity: 16_384, queueByteCapacity: 3_328 << 10,
                                          disableDurabilityBoundMilliseconds: 1, moduleHookBoundMilliseconds: 3_600_000,
                                          authProviderBoundMilliseconds: 1, bulkEventLimit: 1, deliveryAgeLimitMilliseconds: 60_000)
        configuration.journalSegmentBytes = 1 << 10
        configuration.journalRetainedBytes = 1 << 10
        configuration.journalSegmentRecords = 16
        configuration.sdkVersion = String(repeating: "9", count: CallLimits.sdkVersionBytes)
        configuration.modules = [NamedModule(String(repeating: "m", count: CallLimits.moduleNameBytes), version: "")]
        try configuration.validate()
        configuration.journalRetentionAge = .seconds(3_650 * 86_400)
        configuration.journalRetainedBytes = nil
        let sdk = try EngagementSDK(configuration: configuration)
        sdk.track("before-initialize")
        await sdk.settle()
        sdk.shutdown()
    }

    @Test("the defaults are valid")
    func defaultsAreValid() throws {
        try SDKConfiguration(storageDirectory: "/tmp/unused").validate()
    }
}
