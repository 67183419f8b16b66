import Dispatch
import Foundation
import Locking
import Testing
import SDK
import TestSupport

extension SecurityTests {
    @Suite("Keyring: the on-device file of API keys by fingerprint", .timeLimit(.minutes(3)))
    struct KeyringTests {
        private static let usEntry = KeyringEntry(apiKey: "sk_live_us_0123456789", region: "us", endpoint: "https://us.api.example.com")
        private static let euEntry = KeyringEntry(apiKey: "sk_live_eu_9876543210", region: "eu", endpoint: "https://eu.api.example.com")

        @Test("entries stored by one instance are read back by a new one")
        func roundTripAcrossInstances() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let writer = try Keyring(path: path)
            try writer.store(Self.usEntry, for: Self.usEntry.fingerprint)
            try writer.store(Self.euEntry, for: Self.euEntry.fingerprint)

            let reader = try Keyring(path: path)
            #expect(reader.entry(for: Self.usEntry.fingerprint) == Self.usEntry)
            #expect(reader.entry(for: Self.euEntry.fingerprint) == Self.euEntry)
            #expect(reader.fingerprints == [Self.usEntry.fingerprint, Self.euEntry.fingerprint].sorted())
            #expect(reader.entry(for: ProjectFingerprint(apiKey: "unknown")) == nil)
        }

        @Test("storing a changed entry replaces the old one")
        func replaceEntry() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            var moved = Self.usEntry
            moved.region = "custom"
            moved.endpoint = "https://collector.internal.example"
            try keyring.store(moved, for: moved.fingerprint)
            #expect(keyring.entry(for: moved.fingerprint) == moved)
            #expect(try Keyring(path: path).entry(for: moved.fingerprint) == moved)
            #expect(try Keyring(path: path).fingerprints.count == 1)
        }

        @Test("the file has mode 0600")
        func fileMode() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            #expect(try permissions(of: path) == 0o600)
            try keyring.remove(Self.usEntry.fingerprint)
            #expect(try permissions(of: path) == 0o600)
        }

        @Test("a missing file is an empty keyring, and opening it creates nothing")
        func missingFile() throws {
            let directory = TemporaryDirectory()
            let keyring = try Keyring(path: directory.file("keyring.json"))
            #expect(keyring.fingerprints.isEmpty)
            #expect(keyring.entry(for: Self.usEntry.fingerprint) == nil)
            #expect(try directory.contents().isEmpty)
        }

        @Test("a corrupt file throws an error naming the path", arguments: [
            "",
            "not json",
            "{\"version\":1,\"entries\":{\"2c70e12b7a0646f9\":{\"apiKey\":\"key\"",
            "[]",
            "{\"entries\":{}}",
            "{\"version\":\"1\",\"entries\":{}}",
            "{\"version\":1}",
            "{\"version\":1,\"entries\":{\"nothex\":{\"apiKey\":\"key\",\"region\":\"us\",\"endpoint\":\"https://x\"}}}",
            "{\"version\":1,\"entries\":{\"2c70e12b7a0646f9\":{\"apiKey\":\"key\",\"region\":\"us\"}}}",
            "{\"version\":1,\"entries\":{\"2c70e12b7a0646f9\":{\"apiKey\":\"key\",\"region\":\"us\",\"endpoint\":7}}}",
            "{\"version\":1,\"entries\":{\"0000000000000000\":{\"apiKey\":\"key\",\"region\":\"us\",\"endpoint\":\"https://x\"}}}",
        ])
        func corruptFile(_ contents: String) throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: KeyringError.self) { try Keyring(path: path) }
            guard case .corrupt(let reportedPath, _) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(reportedPath == path)
            #expect(String(describing: error).contains(path))
            #expect(error.localizedDescription.contains(path))
        }

        @Test("a newer format version is reported as such, naming the path")
        func newerVersion() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            try Data("{\"version\":2,\"entries\":{},\"vault\":\"elsewhere\"}".utf8).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: KeyringError.self) { try Keyring(path: path) }
            #expect(error == .unsupportedVersion(path: path, found: 2, supported: 1))
            #expect(String(describing: error).contains(path))
        }

        @Test("corruption reports never quote the file's API keys")
        func corruptionReportsHideKeys() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let secret = "sk_live_must_not_leak"
            let texts = [
                "{\"version\":1,\"entries\":{\"2c70e12b7a0646f9\":{\"apiKey\":\"\(secret)\",\"region\":\"us\",\"endpoint\":\"https://x\"}}}",
                "{\"version\":1,\"entries\":{\"2c70e12b7a0646f9\":{\"apiKey\":\"\(secret)\",\"region\":\"us\",\"endpoint\":\"https://x\"",
                "{\"version\":1,\"entries\":{\"2c70e12b7a0646f9\":{\"apiKey\":\"\(secret)\" \"region\":\"us\"}}}",
            ]
            for text in texts {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                let error = try #require(throws: KeyringError.self) { try Keyring(path: path) }
                #expect(!String(describing: error).contains(secret))
                #expect(!SecurityTestSupport.dumped(error).contains(secret))
            }
        }

        @Test("remove deletes the entry from memory and from the file")
        func remove() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            try keyring.store(Self.euEntry, for: Self.euEntry.fingerprint)
            try keyring.remove(Self.usEntry.fingerprint)
            #expect(keyring.entry(for: Self.usEntry.fingerprint) == nil)
            #expect(keyring.fingerprints == [Self.euEntry.fingerprint])
            let reopened = try Keyring(path: path)
            #expect(reopened.fingerprints == [Self.euEntry.fingerprint])
            #expect(!(try fileText(path)).contains(Self.usEntry.apiKey))
        }

        @Test("storing an identical entry or removing an absent one writes nothing")
        func noOpChangesWriteNothing() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            // Every write renames a new file into place, so an unchanged inode means no write.
            let inode = try inodeNumber(of: path)
            try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            try keyring.remove(Self.euEntry.fingerprint)
            #expect(try inodeNumber(of: path) == inode)
            try keyring.store(Self.euEntry, for: Self.euEntry.fingerprint)
            #expect(try inodeNumber(of: path) != inode)
        }

        @Test("an entry offered under another key's fingerprint is refused and nothing is written")
        func fingerprintMismatch() throws {
            let directory = TemporaryDirectory()
            let keyring = try Keyring(path: directory.file("keyring.json"))
            let error = try #require(throws: KeyringError.self) {
                try keyring.store(Self.usEntry, for: Self.euEntry.fingerprint)
            }
            #expect(error == .fingerprintMismatch(given: Self.euEntry.fingerprint, ofKey: Self.usEntry.fingerprint))
            #expect(!String(describing: error).contains(Self.usEntry.apiKey))
            #expect(keyring.fingerprints.isEmpty)
            #expect(try directory.contents().isEmpty)
        }

        @Test("the file holds the keys in the documented JSON layout")
        func fileFormat() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            let entry = KeyringEntry(apiKey: "key", region: "eu", endpoint: "https://eu.example.com")
            try keyring.store(entry, for: entry.fingerprint)
            #expect(try fileText(path) == """
                {"entries":{"2c70e12b7a0646f9":{"apiKey":"key","endpoint":"https://eu.example.com","region":"eu"}},"version":1}
                """)
        }

        @Test("the keyring file is the only thing written that contains a key")
        func keysLiveOnlyInTheKeyring() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            try keyring.store(Self.euEntry, for: Self.euEntry.fingerprint)
            try keyring.remove(Self.euEntry.fingerprint)
            try keyring.store(Self.euEntry, for: Self.euEntry.fingerprint)

            #expect(try fileText(path).contains(Self.usEntry.apiKey))
            #expect(try fileText(path).contains(Self.euEntry.apiKey))
            #expect(try directory.contents() == ["keyring.json"])
            for entry in [Self.usEntry, Self.euEntry] {
                let shown = [
                    String(describing: entry), String(reflecting: entry), SecurityTestSupport.dumped(entry),
                    entry.fingerprint.hex, "\(keyring.fingerprints)",
                ]
                for text in shown {
                    #expect(!text.contains(entry.apiKey))
                }
                #expect(String(describing: entry).contains(entry.fingerprint.hex))
            }
        }

        @Test("a temporary file left by a crash is ignored on load and replaced on the next write")
        func leftoverTemporaryFile() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            try Keyring(path: path).store(Self.usEntry, for: Self.usEntry.fingerprint)
            let temporary = path + ".tmp"
            try Data("{\"half\":".utf8).write(to: URL(fileURLWithPath: temporary))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: temporary)

            let keyring = try Keyring(path: path)
            #expect(keyring.fingerprints == [Self.usEntry.fingerprint])
            try keyring.store(Self.euEntry, for: Self.euEntry.fingerprint)
            #expect(try directory.contents() == ["keyring.json"])
            #expect(try permissions(of: path) == 0o600)
            #expect(try Keyring(path: path).fingerprints.count == 2)
        }

        @Test("a failed write leaves the keyring unchanged")
        func failedWrite() throws {
            let directory = TemporaryDirectory()
            let keyring = try Keyring(path: directory.file("missing-directory/keyring.json"))
            let error = try #require(throws: KeyringError.self) {
                try keyring.store(Self.usEntry, for: Self.usEntry.fingerprint)
            }
            guard case .io(let path, _, _) = error else {
                Issue.record("expected .io, got \(error)")
                return
            }
            #expect(path.hasPrefix(directory.file("missing-directory/")))
            #expect(keyring.entry(for: Self.usEntry.fingerprint) == nil)
        }

        @Test("concurrent stores from many threads all land, in memory and on disk", .tags(.endToEnd))
        func concurrentStores() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("keyring.json")
            let keyring = try Keyring(path: path)
            let threads = 4
            let perThread = 8
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<perThread {
                    let entry = KeyringEntry(apiKey: "sk_\(thread)_\(index)", region: "us", endpoint: "https://us.api.example.com")
                    do {
                        try keyring.store(entry, for: entry.fingerprint)
                    } catch {
                        failures.withLock { $0.append(String(describing: error)) }
                    }
                    _ = keyring.fingerprints
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(keyring.fingerprints.count == threads * perThread)
            let reopened = try Keyring(path: path)
            #expect(reopened.fingerprints == keyring.fingerprints)
            #expect(reopened.entry(for: ProjectFingerprint(apiKey: "sk_3_7"))?.apiKey == "sk_3_7")
        }

        private func permissions(of path: String) throws -> Int? {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.posixPermissions] as? NSNumber)?.intValue
        }

        private func inodeNumber(of path: String) throws -> Int? {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.systemFileNumber] as? NSNumber)?.intValue
        }

        private func fileText(_ path: String) throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        }
    }
}
