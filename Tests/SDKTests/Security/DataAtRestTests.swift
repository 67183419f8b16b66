import Foundation
import Locking
import Sandbox
import Testing
@testable import SDK
import SDKTesting
import TestSupport

extension SecurityTests {
    /// The configuration's protection classes and backup exclusions reach every file the SDK
    /// makes: the journal's directory and files when an instance opens them, each keyring file
    /// before anything is written to it. A recording setter stands in for the platform's; the
    /// platform's own runs too, which on Linux is the documented no-op.
    @Suite("Data at rest: protection classes and backup exclusion reach the journal and the keyring", .tags(.endToEnd), .timeLimit(.minutes(1)))
    struct DataAtRestTests {
        /// One `apply` call: the path, what it was given, and the file as it was then.
        struct Applied: Sendable, Equatable {
            let path: String
            let attributes: StoredItemAttributes
            /// The item's size when the attributes were applied (nil: it did not exist).
            let size: Int?
        }

        /// Records every call; refuses the ones for paths with `refusing` in them.
        final class RecordingSetter: StoredItemAttributeSetter {
            let calls = Locked<[Applied]>([])
            let refusing: String?
            /// Fires with the first keyring file it is handed.
            let keyringFile = Eventually<Applied>()

            init(refusing: String? = nil) {
                self.refusing = refusing
            }

            func apply(_ attributes: StoredItemAttributes, to path: String) throws(StoredItemAttributeError) {
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
                let call = Applied(path: path, attributes: attributes, size: size)
                calls.withLock { $0.append(call) }
                if path.hasSuffix("/keyring.tmp") { keyringFile.completion(call) }
                if let refusing, path.contains(refusing) {
                    throw StoredItemAttributeError(path: path, attribute: "file protection", reason: "refused by the test")
                }
            }
        }

        static let entry = KeyringEntry(apiKey: "sk_live_us_0123456789", region: "us", endpoint: "https://us.api.example.com")
        static let chosen = StoredItemAttributes(protection: .complete, excludedFromBackup: false)

        @Test("the defaults: protected until the first unlock, and left out of backups")
        func defaults() {
            let configuration = SDKConfiguration(storageDirectory: "/nonexistent")
            #expect(configuration.journalProtection == .completeUntilFirstUserAuthentication)
            #expect(configuration.keyringProtection == .completeUntilFirstUserAuthentication)
            #expect(configuration.excludesJournalFromBackup)
            #expect(configuration.excludesKeyringFromBackup)
            #expect(configuration.storedItemAttributes is SystemStoredItemAttributes)
        }

        @Test("the options given to the initializer are the ones applied")
        func optionsAreCarried() {
            let configuration = SDKConfiguration(storageDirectory: "/nonexistent", journalProtection: .completeUnlessOpen,
                                                 keyringProtection: .none, excludesJournalFromBackup: false,
                                                 excludesKeyringFromBackup: true)
            #expect(configuration.journalAttributes == StoredItemAttributes(protection: .completeUnlessOpen, excludedFromBackup: false))
            #expect(configuration.keyringAttributes == StoredItemAttributes(protection: .none, excludedFromBackup: true))
        }

        @Test("opening an instance gives the journal's directory its attributes before the first segment, and every file on reopening")
        func journalDirectoryAndFiles() throws {
            let directory = TemporaryDirectory()
            let setter = RecordingSetter()
            var configuration = SDKConfiguration(storageDirectory: directory.path, clock: ManualClock(),
                                                 journalProtection: .complete, excludesJournalFromBackup: false)
            configuration.storedItemAttributes = setter
            let journal = directory.file("journal")

            let first = try EngagementSDK(configuration: configuration)
            first.shutdown()
            let opened = setter.calls.withLock { $0 }
            #expect(opened.map(\.path) == [journal])
            #expect(opened.first?.attributes == Self.chosen)
            let files = try FileManager.default.contentsOfDirectory(atPath: journal).sorted()
            #expect(!files.isEmpty)

            setter.calls.withLock { $0 = [] }
            let second = try EngagementSDK(configuration: configuration)
            second.shutdown()
            let reopened = setter.calls.withLock { $0 }
            #expect(reopened.map(\.path) == [journal] + files.map { journal + "/" + $0 })
            #expect(reopened.allSatisfy { $0.attributes == Self.chosen })
        }

        @Test("a keyring file gets its attributes while still empty, before it replaces the last one")
        func keyringFileWhileEmpty() throws {
            let directory = TemporaryDirectory()
            let setter = RecordingSetter()
            let path = directory.file("keyring")
            let keyring = try Keyring(path: path, attributes: Self.chosen, setter: setter)
            try keyring.store(Self.entry, for: Self.entry.fingerprint)
            try keyring.remove(Self.entry.fingerprint)
            let calls = setter.calls.withLock { $0 }
            #expect(calls == [Applied(path: path + ".tmp", attributes: Self.chosen, size: 0),
                              Applied(path: path + ".tmp", attributes: Self.chosen, size: 0)])
            #expect(try Keyring(path: path).fingerprints.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        }

        @Test("a refused attribute fails the store with the file and attribute named, and changes nothing")
        func refusedAttribute() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring")
            try Keyring(path: path).store(Self.entry, for: Self.entry.fingerprint)
            let keyring = try Keyring(path: path, attributes: Self.chosen, setter: RecordingSetter(refusing: "keyring"))
            var moved = Self.entry
            moved.region = "custom"
            let error = try #require(throws: KeyringError.self) { try keyring.store(moved, for: moved.fingerprint) }
            #expect(error == .attributeRefused(StoredItemAttributeError(path: path + ".tmp", attribute: "file protection",
                                                                        reason: "refused by the test")))
            #expect("\(error)".contains("keyring.tmp: could not set its file protection: refused by the test"))
            #expect(keyring.entry(for: moved.fingerprint) == Self.entry)
            #expect(try Keyring(path: path).entry(for: moved.fingerprint) == Self.entry)
            #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        }

        @Test("an instance hands the configured keyring attributes to the keyring it stores keys in")
        func instanceKeyring() async throws {
            let directory = TemporaryDirectory()
            let setter = RecordingSetter()
            let sandbox = try SandboxBackend(projects: [SandboxProject(name: "us", apiKey: SDKHarness.usKey, region: "us")])
            var configuration = SDKConfiguration(storageDirectory: directory.path, clock: ManualClock(),
                                                 transport: PatientTransport(base: URLSessionTransport()),
                                                 regionEndpoints: RegionEndpoints(us: sandbox.baseURL(region: "us"), eu: sandbox.baseURL(region: "eu")),
                                                 keyringProtection: .completeUnlessOpen, excludesKeyringFromBackup: false)
            configuration.storedItemAttributes = setter
            let sdk = try EngagementSDK(configuration: configuration)
            sdk.initialize(Project(apiKey: SDKHarness.usKey, config: ProjectConfig(region: .us))!)
            let applied = await setter.keyringFile.value
            sdk.shutdown()
            sandbox.shutdown()
            #expect(applied == Applied(path: directory.file("keyring.tmp"),
                                       attributes: StoredItemAttributes(protection: .completeUnlessOpen, excludedFromBackup: false), size: 0))
        }

        @Test("the platform's setter runs: on Linux a no-op that leaves the files as they were")
        func systemSetterRuns() throws {
            let directory = TemporaryDirectory()
            let file = directory.file("segment")
            try Data("bytes".utf8).write(to: URL(fileURLWithPath: file))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            for protection in FileProtection.allCases {
                try SystemStoredItemAttributes().apply(StoredItemAttributes(protection: protection, excludedFromBackup: true), to: file)
                try SystemStoredItemAttributes().apply(StoredItemAttributes(protection: protection, excludedFromBackup: false), to: directory.path)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("bytes".utf8))
            #expect((try FileManager.default.attributesOfItem(atPath: file))[.posixPermissions] as? Int == 0o600)

            // An instance with every option away from its default opens and stores on the real setter.
            var configuration = SDKConfiguration(storageDirectory: directory.file("sdk"), clock: ManualClock(),
                                                 journalProtection: .complete, keyringProtection: .completeUnlessOpen,
                                                 excludesJournalFromBackup: false, excludesKeyringFromBackup: false)
            configuration.journalSegmentRecords = 100
            let sdk = try EngagementSDK(configuration: configuration)
            sdk.shutdown()
            let keyring = try Keyring(path: directory.file("sdk/keyring"), attributes: configuration.keyringAttributes,
                                      setter: configuration.storedItemAttributes)
            try keyring.store(Self.entry, for: Self.entry.fingerprint)
            #expect(try Keyring(path: directory.file("sdk/keyring")).entry(for: Self.entry.fingerprint) == Self.entry)
        }
    }
}
