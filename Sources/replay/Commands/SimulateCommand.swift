import Foundation
import Journal
import ReplayKit
import SDK
import Simulation

/// `replay simulate`: deterministic simulation of the SDK under random stories and faults.
struct SimulateCommand: Command {
    static let name = "simulate"
    static let summary = "run seeded random stories against a simulated SDK; exit 1 on any failure"
    static let defaultSeeds = 200
    static let defaultSteps = 40
    static let help = """
        usage: replay simulate [--seeds N] [--from-seed S] [--steps N] [--jobs J] [--keep DIR [--receipt-logs]] [--json]
               replay simulate --seed S [--steps N] [--out DIR [--receipt-logs]] [--json]

        Runs random stories, one per seed, against the SDK's real pure core and journal, driven
        by a single-threaded simulated engine on a virtual clock, with a simulated backend that
        injects faults (latency, 5xx, 429, expired JWTs, refused and lost requests, lost
        answers), a slow or failing disk, module hooks that overrun, and power losses followed
        by a relaunch. Stories mix several callers' calls, switch requests (repeats, A→B→A,
        C,D,C, before initialization), push and in-app/embedded tracking mid-switch, logouts,
        late attribution writes and flushes; offline periods from seconds to days (the app
        often says when the network is back), calls just over or at their limits, identity
        changes with events queued on JWT projects, message fetches answered during a
        teardown. Each story ends by settling without faults.

        After every story it checks:
          contract    `replay check`'s invariants over the final journal; every failure and
                      discard by an honest rule (no request used up without a response, none
                      sent or expired out of its age limit); held events and re-registrations
                      never vanish; an over-limit call journaled as its name and reason;
                      messages reset by a teardown never stored again
          projection  the live state equals the fold of the journal: after every input, at
                      each crash (the restored state is the state the process had), at the end
          recheck     `replay recheck`: today's decide reproduces every recorded decision
          backend     `replay reconcile` of the journal with the backend's receipt log: no
                      call elsewhere, lost or duplicate, none received at another endpoint, no
                      receipt no call explains (unless a crash or an erasure lost its call);
                      no request misrouted; each request names one user, with a JWT issued
                      for that user; every disable reached its project
          settle      every completion ran once; every call received is resolved exactly once
                      in the journal; after the calm end nothing is left pending; calls durable
                      before a crash are resolved
          journal     the journal keeps durable records across crashes and reopens; no record
                      is over its limit

        The same seed gives the same story and the same journal, byte for byte. A failing seed
        is printed with the smallest story it shrinks to (steps dropped while the same check
        still fails). Exit status: 0 when every story passes, 1 on any failure.

          --seeds N       how many seeds (default \(defaultSeeds))
          --from-seed S   the first seed (default 1)
          --seed S        run one seed: print its story step by step, the failures and the
                          journal digest
          --steps N       steps per story (default \(defaultSteps))
          --jobs J        threads running seeds side by side (default 1)
          --out DIR       with --seed: write the story's final journal into DIR (created), to
                          read with the other commands (timeline, state, audit, diagnose ...)
          --keep DIR      write every story's final journal into DIR/<seed>/ (DIR is created,
                          or must be empty): a fleet of real journal directories for `replay
                          export` and fleet/run.py
          --receipt-logs  with --keep or --out: write each story's backend receipt log (what
                          each project received, docs/RECONCILE.md) beside its journal's
                          segments, as DIR/<seed>/received.ndjson (with --out,
                          DIR/received.ndjson), for `replay reconcile` and fleet/run.py --received
          --cut-inputs    cut the journal's commit groups every 64 records, as the SDK's default
                          group commit does (a regression check: the journal never cuts inside
                          one input's facts, so a crash cannot tear it)
          --every-input   check projection equality after every input in every story (always
                          done with --seed and while shrinking; otherwise at each crash and at
                          the end, which is about twice as fast)
          --no-shrink     report failing seeds without shrinking them
          --json          one JSON object instead of text
        """

    let seeds: Int
    let firstSeed: UInt64
    let single: UInt64?
    let steps: Int
    let jobs: Int
    let shrinks: Bool
    let json: Bool
    let output: String?
    let cutsGroupsInsideInputs: Bool
    let everyInput: Bool
    let keep: String?
    let keepsReceiptLogs: Bool

    init(arguments: inout Arguments) throws(UsageError) {
        let count: (String) -> Int? = { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
        seeds = try arguments.option("--seeds", as: "a positive count", count) ?? Self.defaultSeeds
        firstSeed = try arguments.option("--from-seed", as: "a seed (0...2^64-1)", { UInt64($0) }) ?? 1
        single = try arguments.option("--seed", as: "a seed (0...2^64-1)", { UInt64($0) })
        steps = try arguments.option("--steps", as: "a positive count", count) ?? Self.defaultSteps
        jobs = try arguments.option("--jobs", as: "a positive count", count) ?? 1
        shrinks = !arguments.flag("--no-shrink")
        json = arguments.flag("--json")
        output = try arguments.option("--out")
        cutsGroupsInsideInputs = arguments.flag("--cut-inputs")
        everyInput = arguments.flag("--every-input")
        keep = try arguments.option("--keep")
        keepsReceiptLogs = arguments.flag("--receipt-logs")
        if keepsReceiptLogs && keep == nil && output == nil { throw UsageError("--receipt-logs needs --keep or --out") }
        if output != nil && single == nil { throw UsageError("--out needs --seed") }
        if keep != nil && single != nil { throw UsageError("--keep is for many seeds; with --seed, use --out") }
    }

    func run(console: Console) throws -> ExitStatus {
        if let single { return try runOne(single, console: console) }
        let range = SeedRange(firstSeed: firstSeed, count: seeds, steps: steps, jobs: jobs, cutsGroupsInsideInputs: cutsGroupsInsideInputs,
                              checksEveryInput: everyInput, keep: keep, keepsReceiptLogs: keepsReceiptLogs)
        if let keep { try Self.prepareKeep(keep) }
        if !json { console.print("simulate: seeds \(firstSeed)…\(firstSeed &+ UInt64(seeds - 1)), \(steps) steps each, \(jobs) job(s)") }
        let tally = range.run(progress: { console.progress("simulate: \(Format.count($0)) stories") })
        console.clearProgress()
        var reports: [JSONValue] = []
        for outcome in tally.failed {
            let shrunk = shrinks ? shrink(outcome) : nil
            if json {
                reports.append(Self.json(outcome, shrunk: shrunk))
            } else {
                printFailure(outcome, shrunk: shrunk, console: console)
            }
        }
        if json {
            console.print(JSONValue.object([
                ("first_seed", .unsigned(firstSeed)), ("seeds", .integer(Int64(seeds))), ("steps", .integer(Int64(steps))),
                ("stories", .integer(Int64(tally.stories))), ("failed", .integer(Int64(tally.failed.count))),
                ("records", .integer(Int64(tally.records))), ("requests_received", .integer(Int64(tally.requestsReceived))),
                ("launches", .integer(Int64(tally.launches))), ("journals_digest", .string(Self.hex(tally.journalsDigest))),
                ("failures", .array(reports)),
                ("explained", .object(tally.explained.keys.sorted().map { ($0, .integer(Int64(tally.explained[$0] ?? 0))) })),
            ]).serialized())
        } else {
            console.print("simulate: \(Format.count(tally.stories)) stories, \(Format.count(tally.launches)) launches, "
                          + "\(Format.count(tally.records)) journal records (digest \(Self.hex(tally.journalsDigest))), "
                          + "\(Format.count(tally.requestsReceived)) requests received; "
                          + (tally.failed.isEmpty ? "every story passed" : "\(tally.failed.count) failed (seeds \(tally.failed.map { String($0.seed) }.joined(separator: ", ")))"))
            for (explanation, count) in tally.explained.sorted(by: { $0.key < $1.key }) {
                console.print("  explained, not failures: \(Format.count(count)) × \(explanation)")
            }
        }
        for problem in tally.unkept { console.printError("replay simulate: could not keep the journal \(problem)") }
        return tally.failed.isEmpty && tally.unkept.isEmpty ? .ok : .findings
    }

    /// Creates the `--keep` directory, or accepts an empty one.
    private static func prepareKeep(_ path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            guard (try? manager.contentsOfDirectory(atPath: path))?.isEmpty == true else { throw SimulationOutputError.exists(path) }
            return
        }
        do { try manager.createDirectory(atPath: path, withIntermediateDirectories: true) } catch { throw SimulationOutputError.unwritable(path) }
    }

    private func runOne(_ seed: UInt64, console: Console) throws -> ExitStatus {
        let story = StoryGenerator.story(seed: seed, length: steps, cutsGroupsInsideInputs: cutsGroupsInsideInputs)
        var trace: [String] = []
        var storage: InMemoryStorage?
        var receipts: [ReceiptLine]?
        let outcome = StoryRunner.run(story, trace: { trace.append($0) }, journal: { storage = $0 },
                                      receiptLog: keepsReceiptLogs ? { receipts = $0 } : nil)
        if let output, let storage {
            try StoryRunner.write(storage, to: output)
            if let receipts { try StoryRunner.write(receiptLog: receipts, to: output + "/" + StoryRunner.receiptLogName) }
        }
        let shrunk = outcome.passed || !shrinks ? nil : shrink(outcome)
        if json {
            console.print(JSONValue.object([
                ("seed", .unsigned(seed)), ("passed", .bool(outcome.passed)), ("steps", .array(trace.map(JSONValue.string))),
                ("journal_digest", .string(Self.hex(outcome.journalDigest))), ("launches", .integer(Int64(outcome.launches))),
                ("records", .integer(Int64(outcome.records))), ("requests_received", .integer(Int64(outcome.requestsReceived))),
                ("failure", outcome.passed ? .null : Self.json(outcome, shrunk: shrunk)),
            ]).serialized())
        } else {
            console.print("simulate: seed \(seed), \(story.steps.count) steps; world: \(Self.describe(story.profile))")
            trace.forEach { console.print("  " + $0) }
            console.print("  then the world settles without faults")
            console.print("journal: \(Format.count(outcome.records)) records over \(outcome.launches) launch(es), digest \(Self.hex(outcome.journalDigest)); "
                          + "backend processed \(Format.count(outcome.requestsReceived)) request(s)")
            if outcome.passed {
                console.print("every check passed")
            } else {
                printFailure(outcome, shrunk: shrunk, console: console)
            }
        }
        return outcome.passed ? .ok : .findings
    }

    private func shrink(_ outcome: StoryOutcome) -> (story: Story, outcome: StoryOutcome?)? {
        guard let check = outcome.firstCheck else { return nil }
        return StoryShrinker().shrink(StoryGenerator.story(seed: outcome.seed, length: steps, cutsGroupsInsideInputs: cutsGroupsInsideInputs), failing: check)
    }

    private func printFailure(_ outcome: StoryOutcome, shrunk: (story: Story, outcome: StoryOutcome?)?, console: Console) {
        console.print("seed \(outcome.seed) FAILED:")
        for failure in outcome.failures { console.print("  [\(failure.check.rawValue)] \(failure.message)") }
        guard let shrunk else { return }
        console.print("  smallest story that still fails \(outcome.firstCheck?.rawValue ?? "") (\(shrunk.story.steps.count) of \(outcome.steps) steps):")
        for (index, step) in shrunk.story.steps.enumerated() { console.print("    \(index + 1). \(step)") }
        for failure in (shrunk.outcome?.failures ?? []).prefix(3) { console.print("    → [\(failure.check.rawValue)] \(failure.message)") }
        console.print("  replay it with: replay simulate --seed \(outcome.seed) --steps \(outcome.steps)")
    }

    private static func json(_ outcome: StoryOutcome, shrunk: (story: Story, outcome: StoryOutcome?)?) -> JSONValue {
        .object([
            ("seed", .unsigned(outcome.seed)),
            ("failures", .array(outcome.failures.map { .object([("check", .string($0.check.rawValue)), ("message", .string($0.message))]) })),
            ("shrunk_steps", .optional(shrunk?.story.steps) { .array($0.map { .string($0.description) }) }),
        ])
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    static func describe(_ profile: FaultProfile) -> String {
        var parts = ["latency \(profile.latencyMilliseconds.lowerBound)–\(profile.latencyMilliseconds.upperBound) ms"]
        func odds(_ name: String, _ value: Double) { if value > 0 { parts.append("\(name) \(Int((value * 100).rounded()))%") } }
        odds("5xx", profile.serverError)
        odds("429", profile.tooManyRequests)
        odds("refused", profile.refused)
        odds("lost on the way", profile.lostBeforeBackend)
        odds("answer lost", profile.lostAfterBackend)
        odds("JWT expiry", profile.tokenExpiry)
        odds("auth failure", profile.authFailure)
        odds("sync failure", profile.syncFailure)
        odds("module failure", profile.moduleFailure)
        parts.append("disk sync \(profile.syncDelayMilliseconds.upperBound) ms max")
        parts.append("hooks \(profile.hookMilliseconds.upperBound) ms max")
        if !profile.withModules { parts.append("no modules") }
        if profile.rules.gateCapacity < EngineRules().gateCapacity { parts.append("gate of \(profile.rules.gateCapacity)") }
        if profile.rules.queueCapacity < EngineRules().queueCapacity { parts.append("queue of \(profile.rules.queueCapacity)") }
        if case .deliverToOutgoing(let timeout) = profile.rules.pendingEvents { parts.append("deliver pending events for \(timeout) ms") }
        return parts.joined(separator: ", ")
    }
}
