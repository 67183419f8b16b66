import CrashStory
import Foundation
import Journal
import SDKTesting
import Sandbox
import SDK
import Testing
import TestSupport
import ReplayKit
import replay

/// The SDK in a child process, killed with SIGKILL at random moments through a long story with
/// switches; each time a new process opens the same journal and carries on.
@Suite("SDK crashes", .tags(.endToEnd), .timeLimit(.minutes(10)))
struct SDKCrashTests {
    /// How many kills: 20 by default (CI), more with SDK_CRASH_ITERATIONS (`make reliability`).
    static let iterations = ProcessInfo.processInfo.environment["SDK_CRASH_ITERATIONS"].flatMap(Int.init) ?? 20

    /// The story's and the kills' seed: SDK_CRASH_SEED, or a fixed one.
    static let seed = ProcessInfo.processInfo.environment["SDK_CRASH_SEED"].flatMap(UInt64.init) ?? 7_1129

    struct Acknowledged: Hashable {
        var event: String
        var project: Int
    }

    @Test("killed at random moments mid-story: nothing acknowledged is lost or doubled, disables reach the outgoing project, the journal checks clean",
          .enabled(if: ChildProcess.executable != nil))
    func crashes() async throws {
        let sandbox = try SandboxBackend(projects: CrashStory.projects.map { SandboxProject(name: $0.name, apiKey: $0.key, region: $0.region) })
        let directory = TemporaryDirectory()
        let seed = Self.seed
        let length = max(600, Self.iterations * 40)
        let story = CrashStory(seed: seed, length: length)
        var random = SplitMix64(seed: seed)
        var acknowledged = Set<Acknowledged>()
        var resume = 0
        var kills = 0

        for run in 0...Self.iterations {
            let child = try ChildProcess(arguments: ["sdk", directory.path, String(sandbox.port), String(seed), String(length), String(resume), String(run)])
            let last = run == Self.iterations
            let killAfter = last ? Int.max : Int(random.next() % 4)
            var seen = 0
            var flushed = resume
            var finished = false
            while seen < killAfter, let line = await child.nextLine() {
                if line == "done" { finished = true; break }
                let parts = line.split(separator: " ")
                if parts.count == 2, parts[0] == "flushed", let step = Int(parts[1]) {
                    flushed = step
                    seen += 1
                }
            }
            if !finished && !last {
                await child.killAndReap()
                kills += 1
            } else {
                #expect(await child.exitStatus() == 0)
            }
            for index in resume..<flushed where story.steps[index] == .track {
                acknowledged.insert(Acknowledged(event: CrashStory.eventName(step: index, run: run), project: story.project(atStep: index)))
            }
            resume = flushed
            if finished { break }
        }
        #expect(kills >= min(Self.iterations, 5))

        // The journal verifies and the contract's invariants hold over it.
        let journal = directory.path + "/journal"
        #expect(try JournalReader(directory: journal).verify().isClean)
        var out = "", error = ""
        let status = ReplayCommandLine.run(["check", journal], console: Console(out: { out += $0 }, error: { error += $0 }))
        #expect(status == 0, "\(out)\(error)")

        // Where the journal says each track call went (the contract decides: a call made while a
        // switch left over from the killed process was in flight goes where that switch landed).
        var resolutions: [String: CallOutcome] = [:]
        var names: [CallID: String] = [:]
        let facts = try JournalReader(directory: journal).records(mode: .salvage)
        while let record = try facts.next() {
            guard !record.isSnapshot, let fact = try? FactCodec.decode(kind: record.kind, payload: record.payload) else { continue }
            switch fact {
            case .callReceived(let received):
                if case .track(let event, _) = received.call { names[received.id] = event }
            case .callResolved, .callsResolved:
                for (call, outcome) in fact.resolutions { if let name = names[call] { resolutions[name] = outcome } }
            default:
                break
            }
        }
        var received: [String: [Int]] = [:]
        for (index, project) in CrashStory.projects.enumerated() {
            // Alone (events/track) or in a bulk request (events/trackBulk): each event once.
            for event in sandbox.deliveredEvents(project: project.name) { received[event.eventName, default: []].append(index) }
        }
        // Nothing acknowledged is lost: every acknowledged call is in the journal, resolved.
        let made = Set(names.values)
        let summary = try JournalReader(directory: journal).verify()
        // The counts docs/RELIABILITY.md reports.
        print("SDK crashes (seed \(seed)): \(kills) kills survived, \(acknowledged.count) acknowledged calls checked, \(summary.records) records in \(summary.segments) segments")
        for call in acknowledged {
            #expect(made.contains(call.event), "acknowledged \(call.event) is missing from the journal")
            #expect(resolutions[call.event] != nil || !made.contains(call.event), "acknowledged \(call.event) was never resolved")
        }
        #expect(acknowledged.count > 50)
        // Every call the journal says was delivered reached that project exactly once and no other;
        // a call the journal discarded (a switch purged it) reached nobody more than once.
        for (event, outcome) in resolutions {
            if case .delivered(let project, _) = outcome {
                let index = CrashStory.projects.firstIndex { ProjectFingerprint(apiKey: $0.key) == project }
                #expect(received[event] == index.map { [$0] }, "\(event): journal says \(project), backend got \(received[event] ?? [])")
            } else {
                #expect((received[event] ?? []).count <= 1, "\(event) was \(outcome) but reached \(received[event] ?? [])")
            }
        }

        // Every disableDevice the journal queued reached the project it was made for.
        let journalID = try #require(try JournalReader(directory: journal).journalID)
        let cursor = try JournalReader(directory: journal).records(mode: .salvage)
        var disables: [(key: String, project: ProjectFingerprint)] = []
        while let record = try cursor.next() {
            guard !record.isSnapshot, case .taskQueued(let task)? = try? FactCodec.decode(kind: record.kind, payload: record.payload),
                  task.isDisableDevice else { continue }
            disables.append((task.idempotencyKey(stream: journalID), task.project))
        }
        #expect(!disables.isEmpty)
        for disable in disables {
            let name = try #require(CrashStory.projects.first { ProjectFingerprint(apiKey: $0.key) == disable.project }?.name)
            #expect(sandbox.requests(project: name).contains { $0.headers["idempotency-key"] == disable.key && ($0.status ?? 0) < 300 },
                    "disable \(disable.key) never reached \(name)")
        }
    }
}
