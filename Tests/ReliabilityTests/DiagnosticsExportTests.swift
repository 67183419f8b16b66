import Foundation
import Journal
import Locking
import Sandbox
import SDK
import SDKTesting
import Testing
import TestSupport
@testable import Demo

/// `exportDiagnostics(to:)`: the copy an app sends to support. It is made while the engine keeps
/// working, reads with `replay`, stays within its budget and holds no secret.
@Suite("Diagnostics export", .tags(.endToEnd), .timeLimit(.minutes(10)))
struct DiagnosticsExportTests {
    typealias Secrets = SecretsTests

    /// An SDK over real files in a directory of its own, against a sandbox with the US and EU
    /// projects, with a module that can hold a switch's teardown. Shuts both down when released.
    final class Harness {
        let scratch = TemporaryDirectory()
        let sandbox: SandboxBackend
        let sdk: EngagementSDK
        let holder = PausableModule(name: "holder")
        let us = Project(apiKey: Secrets.usKey, config: ProjectConfig(region: .us))!
        let eu = Project(apiKey: Secrets.euKey, config: ProjectConfig(region: .eu))!

        init(segmentBytes: Int = 4 << 20) throws {
            sandbox = try SandboxBackend(projects: [SandboxProject(name: "us", apiKey: Secrets.usKey, region: "us"),
                                                    SandboxProject(name: "eu", apiKey: Secrets.euKey, region: "eu")])
            // The holder keeps the switch held until the test releases it: the hook's bound (2 s
            // by default, on the real clock) must not end it first on a loaded machine.
            let configuration = SDKConfiguration(
                storageDirectory: scratch.path + "/sdk", modules: [holder], rules: EngineRules(moduleHookBoundMilliseconds: 600_000),
                regionEndpoints: RegionEndpoints(us: sandbox.baseURL(region: "us"), eu: sandbox.baseURL(region: "eu")),
                journalSegmentBytes: segmentBytes)
            sdk = try EngagementSDK(configuration: configuration)
        }

        deinit {
            sdk.shutdown()
            sandbox.shutdown()
        }
    }

    /// Every byte of the copy: its files as stored, its segments decompressed, its payloads.
    static func everything(in copy: String) throws -> Data {
        var all = Data()
        for file in try Secrets.files(under: copy) where !file.isDirectory {
            #expect(file.mode == 0o600, "\(file.path) has mode \(String(file.mode, radix: 8))")
            all.append(try Data(contentsOf: URL(fileURLWithPath: file.path)))
            if file.path.hasSuffix(".lz4"), let decompressed = try Secrets.decompressedByTool(file.path) { all.append(decompressed) }
        }
        all.append(try Secrets.payloads(of: copy))
        return all
    }

    @Test("made during a held switch while the engine keeps processing calls; reads with replay; holds no API key and no personal value",
          .timeLimit(.minutes(1)))
    func duringAHeldSwitch() async throws {
        let harness = try Harness()
        let (sdk, holder, us, eu, scratch) = (harness.sdk, harness.holder, harness.us, harness.eu, harness.scratch)
        await sdk.outcome.initialize(us)
        #expect(await sdk.outcome.setEmail(Secrets.emails[0]) == .applied(project: us.fingerprint))
        _ = await sdk.outcome.registerToken(Secrets.token)
        _ = await sdk.outcome.track(Secrets.eventNames[0], dataFields: ["address": .string(Secrets.dataValues[0])])
        _ = await sdk.outcome.updateUser(dataFields: ["machine": .string(Secrets.dataValues[1])])

        holder.arm()
        let switched = Locked<SwitchResult?>(nil)
        sdk.switchProject(to: eu) { result in switched.withLock { $0 = result } }
        await holder.arrivals.wait(untilAtLeast: 1)
        // Gated calls made now wait behind the switch; the copy is made meanwhile.
        sdk.setUserId(Secrets.userID, completion: nil)
        sdk.track(Secrets.eventNames[1], dataFields: ["secret": .string(Secrets.dataValues[2])], completion: nil)
        let copy = scratch.path + "/diagnostics"
        let export = try await sdk.outcome.exportDiagnostics(to: copy)
        // The engine went on processing calls: a flush made after the copy completes, and the
        // switch is still held.
        guard case .applied = await sdk.outcome.flush() else { Issue.record("flush during the held switch did not complete"); return }
        #expect(switched.withLock { $0 } == nil, "the switch landed before the copy was made: it did not run during the switch")
        holder.release()
        await sdk.settle()
        #expect(switched.withLock { $0 } != nil)
        sdk.shutdown()

        #expect(export.directory == copy && export.records > 0 && export.segmentsLeftOut == 0 && export.emptiedRecords == 0)
        #expect(export.bytes <= export.byteBudget)
        for command in ["verify", "audit", "check"] {
            let result = Secrets.run([command, copy])
            #expect(result.status == 0, "replay \(command) on the copy: \(result.error)\(result.out.suffix(2000))")
        }
        let facts = Secrets.run(["timeline", copy]).out
        let kinds = Secrets.run(["cat", copy]).out
        #expect(kinds.contains("switchStarted") && !kinds.contains("switchLanded"), "the copy is of the journal mid-switch")
        #expect(kinds.contains("gateDecided"))

        let bytes = try Self.everything(in: copy)
        for secret in [Secrets.usKey, Secrets.euKey, Secrets.userID, Secrets.token] + Secrets.emails + Secrets.dataValues {
            #expect(!Secrets.contains(bytes, secret), "\(secret) is in the diagnostics copy")
        }
        // What is not personal survives, so the copy is worth sending.
        #expect(Secrets.contains(bytes, Secrets.eventNames[0]) && facts.contains(us.fingerprint.hex), "\(facts.prefix(2000))")
        let manifest = try String(contentsOfFile: copy + "/diagnostics.json", encoding: .utf8)
        #expect(manifest.contains(#""redacted":true"#) && manifest.contains(#""segments_left_out":{"count":0"#))
    }

    @Test("bounded by its byte budget: the newest segments are copied, the older ones left out and named in the manifest",
          .timeLimit(.minutes(1)))
    func boundedByItsBudget() async throws {
        let harness = try Harness(segmentBytes: 4 << 10)
        let (sdk, us, scratch) = (harness.sdk, harness.us, harness.scratch)
        await sdk.outcome.initialize(us)
        _ = await sdk.outcome.setEmail(Secrets.emails[0])
        for index in 0..<600 { _ = await sdk.outcome.track("event-\(index)", dataFields: ["n": .integer(Int64(index))]) }
        _ = await sdk.outcome.track("the-last-event")
        let segments = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/sdk/journal").filter { $0.hasSuffix(".lz4") }
        #expect(segments.count > 4, "the story must span several segments")

        let budget = 16 << 10
        let copy = scratch.path + "/diagnostics"
        let export = try await sdk.outcome.exportDiagnostics(to: copy, byteBudget: budget)
        sdk.shutdown()
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: copy).reduce(0) { total, name in
            total + ((try FileManager.default.attributesOfItem(atPath: copy + "/" + name)[.size] as? NSNumber)?.intValue ?? 0)
        }
        #expect(onDisk == export.bytes && onDisk <= budget)
        #expect(export.segmentsCopied >= 1 && export.segmentsLeftOut >= 1)
        #expect(Secrets.run(["verify", copy]).status == 0)
        let payloads = try Secrets.payloads(of: copy)
        #expect(Secrets.contains(payloads, "the-last-event"), "the newest records are in the copy")
        #expect(!Secrets.contains(payloads, "event-0"), "the oldest records are left out")
        let manifest = try String(contentsOfFile: copy + "/diagnostics.json", encoding: .utf8)
        #expect(manifest.contains("did not fit the budget of \(budget) bytes"))
        #expect(!Secrets.contains(try Self.everything(in: copy), Secrets.emails[0]))
    }

    @Test("a destination that is not empty, or a budget too small, is refused by name before anything is written")
    func badDestinationsAreRefused() async throws {
        let harness = try Harness()
        let (sdk, scratch) = (harness.sdk, harness.scratch)
        let occupied = scratch.path + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: occupied + "/file"))
        await #expect(throws: DiagnosticsExportError.destinationExists(occupied)) { try await sdk.outcome.exportDiagnostics(to: occupied) }
        await #expect(throws: DiagnosticsExportError.budgetTooSmall(100)) {
            try await sdk.outcome.exportDiagnostics(to: scratch.path + "/small", byteBudget: 100)
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/small"))
    }
}
