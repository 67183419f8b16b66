import Foundation
import Journal
import Sandbox
import SDK
import Testing
import TestSupport
import ReplayKit
import replay

/// What leaves the device holds no secret: API keys live only in the keyring, redacted exports
/// hold none of the personal data that went in, files are private to the user, and a journal
/// cannot make `replay` read anything but the files it was given.
@Suite("Secrets", .tags(.endToEnd), .timeLimit(.minutes(10)))
struct SecretsTests {
    static let usKey = "sk-us-7d1f0c5e2b9a4410"
    static let euKey = "sk-eu-93ab44e10f6c2d87"
    static let emails = ["ada.lovelace@private.example", "grace.hopper@private.example"]
    static let userID = "user-8c2f31d0"
    static let token = "apns-5e9d77c0a1b2"
    static let dataValues = ["4 Marylebone Road", "Analytical Engine", "hopper-pass-771"]
    static let eventNames = ["cart_viewed", "checkout_started"]

    /// A real SDK over real files, through a switch: every kind of personal data goes in.
    static func writeStory(into storage: String) async throws -> (journal: String, projects: [ProjectFingerprint]) {
        let sandbox = try SandboxBackend(projects: [SandboxProject(name: "us", apiKey: usKey, region: "us"),
                                                    SandboxProject(name: "eu", apiKey: euKey, region: "eu")])
        defer { sandbox.shutdown() }
        let us = try #require(Project(apiKey: usKey, config: ProjectConfig(region: .us)))
        let eu = try #require(Project(apiKey: euKey, config: ProjectConfig(region: .eu)))
        let configuration = SDKConfiguration(
            storageDirectory: storage,
            regionEndpoints: RegionEndpoints(us: sandbox.baseURL(region: "us"), eu: sandbox.baseURL(region: "eu")))
        let sdk = try EngagementSDK(configuration: configuration)
        await sdk.outcome.initialize(us)
        #expect(await sdk.outcome.setEmail(emails[0]) == .applied(project: us.fingerprint))
        _ = await sdk.outcome.registerToken(token)
        _ = await sdk.outcome.track(eventNames[0], dataFields: ["address": .string(dataValues[0])])
        _ = await sdk.outcome.updateUser(dataFields: ["machine": .string(dataValues[1])])
        _ = await sdk.outcome.trackPurchase(total: 12.5, items: [CommerceItem(id: "i1", name: "Card", price: 12.5, quantity: 1)])
        // The SDK is on EU either way; on the real clock a loaded machine may pass the 2 s bound
        // for the disable's durability, which makes the switch one with warnings. The secrets
        // are what this test is about.
        let switched = await sdk.outcome.switchProject(to: eu)
        #expect(switched == .switchedCleanly || switched == .switchedWithWarnings)
        _ = await sdk.outcome.setUserId(userID)
        _ = await sdk.outcome.updateEmail(emails[1])
        _ = await sdk.outcome.track(eventNames[1], dataFields: ["secret": .string(dataValues[2])])
        let flushed = await sdk.outcome.flush()
        guard case .applied = flushed else {
            Issue.record("flush: \(flushed)")
            return (storage + "/journal", [])
        }
        await sdk.settle()
        sdk.shutdown()
        #expect(sandbox.delivered(project: "eu").contains { $0.endpoint == "events/track" })
        return (storage + "/journal", [us.fingerprint, eu.fingerprint])
    }

    static func contains(_ haystack: Data, _ needle: String) -> Bool {
        haystack.range(of: Data(needle.utf8)) != nil
    }

    /// Every regular file under `directory`, recursively, with its attributes.
    static func files(under directory: String) throws -> [(path: String, isDirectory: Bool, mode: Int)] {
        var found: [(String, Bool, Int)] = []
        let manager = FileManager.default
        for name in try manager.subpathsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            let attributes = try manager.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            found.append((path, attributes[.type] as? FileAttributeType == .typeDirectory, mode))
        }
        return found
    }

    /// A segment file as `lz4 -dc` prints it, when the tool is installed.
    static func decompressedByTool(_ path: String) throws -> Data? {
        let tool = ["/usr/bin/lz4", "/usr/local/bin/lz4"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// Every record's payload, decompressed by the journal's own reader.
    static func payloads(of journal: String) throws -> Data {
        var all = Data()
        let cursor = try JournalReader(directory: journal).records()
        while let record = try cursor.next() { all.append(contentsOf: record.payload) }
        return all
    }

    static func run(_ arguments: [String]) -> (status: Int32, out: String, error: String) {
        var out = "", error = ""
        let status = ReplayCommandLine.run(arguments, console: Console(out: { out += $0 }, error: { error += $0 }))
        return (status, out, error)
    }

    @Test("no API key in any journal byte, compressed or decompressed; only the keyring holds them; every file is 0600, every directory 0700")
    func keysStayInTheKeyring() async throws {
        let scratch = TemporaryDirectory()
        let (journal, projects) = try await Self.writeStory(into: scratch.path + "/sdk")
        let files = try Self.files(under: scratch.path + "/sdk")
        #expect(files.contains { $0.path.hasSuffix("/keyring") })
        #expect(files.filter { $0.path.hasSuffix(".lz4") }.count >= 1)

        for file in files {
            if file.isDirectory {
                #expect(file.mode == 0o700, "\(file.path) has mode \(String(file.mode, radix: 8))")
                continue
            }
            #expect(file.mode == 0o600, "\(file.path) has mode \(String(file.mode, radix: 8))")
            let raw = try Data(contentsOf: URL(fileURLWithPath: file.path))
            if file.path.hasSuffix("/keyring") {
                #expect(Self.contains(raw, Self.usKey) && Self.contains(raw, Self.euKey))
                continue
            }
            for key in [Self.usKey, Self.euKey] {
                #expect(!Self.contains(raw, key), "\(file.path) holds an API key")
            }
            if file.path.hasSuffix(".lz4"), let decompressed = try Self.decompressedByTool(file.path) {
                #expect(!decompressed.isEmpty)
                for key in [Self.usKey, Self.euKey] {
                    #expect(!Self.contains(decompressed, key), "\(file.path) holds an API key once decompressed")
                }
            }
        }
        let payloads = try Self.payloads(of: journal)
        for key in [Self.usKey, Self.euKey] { #expect(!Self.contains(payloads, key)) }
        // The search does look at the decompressed facts: they do name the user (on the device,
        // the journal is as private as the app's own storage) and the projects' fingerprints.
        #expect(Self.contains(payloads, Self.emails[0]))
        let text = Self.run(["timeline", journal]).out
        for project in projects { #expect(text.contains(project.hex)) }
    }

    @Test("a redacted export, as a journal, NDJSON or a trace, holds none of the emails, user ids, tokens or data values that went in", arguments: ["journal", "ndjson", "trace"])
    func redactedExportHoldsNoPersonalData(format: String) async throws {
        let scratch = TemporaryDirectory()
        let (journal, _) = try await Self.writeStory(into: scratch.path + "/sdk")
        let output = scratch.path + "/export" + (format == "journal" ? "" : "." + format)
        let export = Self.run(["export", "--redact", "--format", format, "-o", output, journal])
        #expect(export.status == 0, "\(export.error)")

        var everything = Data()
        if format != "journal" {
            everything = try Data(contentsOf: URL(fileURLWithPath: output))
            let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
        } else {
            for file in try Self.files(under: output) where !file.isDirectory {
                #expect(file.mode == 0o600, "\(file.path)")
                everything.append(try Data(contentsOf: URL(fileURLWithPath: file.path)))
                if file.path.hasSuffix(".lz4"), let decompressed = try Self.decompressedByTool(file.path) { everything.append(decompressed) }
            }
            everything.append(try Self.payloads(of: output))
        }
        let secrets = [Self.usKey, Self.euKey, Self.userID, Self.token] + Self.emails + Self.dataValues
        for secret in secrets {
            #expect(!Self.contains(everything, secret), "\(secret) survived the \(format) export")
        }
        // What is not personal survives, so the export is still worth reading.
        for name in Self.eventNames { #expect(Self.contains(everything, name)) }
    }

    @Test("a segment that is a symbolic link is refused by name, never followed, by replay and by the writer")
    func symbolicLinksAreNeverFollowed() async throws {
        let scratch = TemporaryDirectory()
        let (journal, _) = try await Self.writeStory(into: scratch.path + "/sdk")
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).sorted().first { $0.hasSuffix(".lz4") })

        // A journal whose only segment points at a file elsewhere (here, a real segment).
        let hostile = scratch.path + "/hostile"
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: hostile + "/" + segment, withDestinationPath: journal + "/" + segment)
        for command in ["verify", "info", "cat", "timeline", "check", "audit"] {
            let result = Self.run([command, hostile])
            #expect(result.status == 2, "\(command): \(result.out)")
            #expect(result.error.contains(segment) && result.error.contains("symbolic link"), "\(command): \(result.error)")
            #expect(result.out.isEmpty || command == "verify", "\(command) printed \(result.out)")
        }

        // An index cache linked to a file outside is never read: commands still work from the data.
        let reference = Self.run(["cat", "--from", "5", "--limit", "3", journal])
        let index = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).first { $0.hasSuffix(".idx") })
        let outside = scratch.path + "/outside"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.removeItem(atPath: journal + "/" + index)
        try FileManager.default.createSymbolicLink(atPath: journal + "/" + index, withDestinationPath: outside)
        let viaLink = Self.run(["cat", "--from", "5", "--limit", "3", journal])
        #expect(viaLink.status == 0 && viaLink.out == reference.out, "\(viaLink.error)")

        // The writer does not append through a linked segment either: the file outside is untouched.
        let target = scratch.path + "/target"
        try FileManager.default.copyItem(atPath: journal + "/" + segment, toPath: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        let linked = scratch.path + "/linked"
        try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked + "/" + segment, withDestinationPath: target)
        #expect(throws: JournalError.self) {
            let writer = try JournalWriter(directory: linked, options: JournalOptions()) { _ in [] }
            _ = try writer.append(kind: 16, timestamp: JournalTime(microsecondsSince1970: 0), payload: [1, 2, 3])
            try writer.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }
}
