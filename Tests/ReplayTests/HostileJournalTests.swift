import Foundation
import FuzzHarness
import Journal
import SDK
import Testing

/// Hostile, damaged and truncated journals: no subcommand may crash; each ends with status 1
/// (findings: corruption, unreadable records) or 2 (unreadable input), and says why.
@Suite("hostile and truncated journals never crash a subcommand", .timeLimit(.minutes(3)))
struct HostileJournalTests {
    /// Every subcommand, as run against the journal at `path` (outputs go to `scratch`).
    static func commands(_ path: String, scratch: String) -> [[String]] {
        [
            ["info", path], ["verify", path], ["cat", path], ["cat", "--json", path], ["timeline", path],
            ["timeline", "--json", "--from", "3", path], ["state", "--at", "1", path], ["state", "--at", "999999", path],
            ["state", "--at", "2025-11-24T16:00:05Z", "--json", path], ["diff", "--from", "1", "--to", "999999", path],
            ["audit", path], ["audit", "--json", path], ["diagnose", path], ["diagnose", "--json", path], ["check", path],
            ["recheck", path], ["export", "--redact", "-o", scratch + "/copy", path],
            ["export", "--redact", "--format", "ndjson", "-o", scratch + "/copy.ndjson", path],
            ["export", "--redact", "--format", "trace", "-o", scratch + "/copy.trace.json", path],
            ["report", "-o", scratch + "/report.html", path], ["step", path],
            ["reconcile", path, "--received", scratch + "/received.ndjson"],
        ]
    }

    /// Runs every subcommand; each must finish with a status of 0, 1 or 2, and explain 1 or 2.
    /// Unless `allowClean`, each must find something (but `verify`, which checks framing only,
    /// and `step`, which is interactive).
    private func runEverything(on path: String, allowClean: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let scratch = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // A receipt log with nothing received: `reconcile` finds every sent call lost.
        _ = FileManager.default.createFile(atPath: scratch + "/received.ndjson", contents: Data())
        for arguments in Self.commands(path, scratch: scratch) {
            let run = ReplayHarness.run(arguments, input: ["next 5", "prev", "goto 3", "switch 1", "state", "diff", "find x", "quit"])
            #expect([0, 1, 2].contains(run.status), "\(arguments): status \(run.status)", sourceLocation: sourceLocation)
            if run.status != 0 {
                // `diff` ends with 1 when the two moments differ, like diff(1), and lists the changes.
                #expect(!run.error.isEmpty || run.out.contains("CORRUPT") || run.out.contains("violation") || run.out.contains("differ")
                        || run.out.contains("\"clean\":false") || (arguments[0] == "diff" && run.out.contains("change(s)"))
                        // `reconcile` ends with 1 on any verdict but agreed, and counts them.
                        || (arguments[0] == "reconcile" && run.out.contains(" lost, ")),
                        "\(arguments) ended with \(run.status) and said nothing", sourceLocation: sourceLocation)
            } else if !allowClean && !["verify", "step"].contains(arguments[0]) {
                Issue.record("\(arguments) found nothing wrong", sourceLocation: sourceLocation)
            }
        }
    }

    /// A copy of the demo journal in a fresh directory.
    private func demoCopy() async throws -> (directory: String, segment: String) {
        let demo = await DemoFixture.shared.journal().journal
        let directory = ReplayHarness.temporaryDirectory()
        let names = try FileManager.default.contentsOfDirectory(atPath: demo).filter { $0.hasSuffix(".lz4") }.sorted()
        for name in names { try FileManager.default.copyItem(atPath: demo + "/" + name, toPath: directory + "/" + name) }
        return (directory, directory + "/" + (names.first ?? "segment-00000000000000000001.lz4"))
    }

    @Test("the demo journal cut short at many places", .tags(.endToEnd))
    func truncated() async throws {
        let (directory, segment) = try await demoCopy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = try Data(contentsOf: URL(fileURLWithPath: segment))
        for cut in stride(from: 0, to: original.count, by: max(1, original.count / 9)) + [original.count - 1, 7, 70] {
            try original.prefix(cut).write(to: URL(fileURLWithPath: segment))
            runEverything(on: directory)
        }
    }

    @Test("flipped bytes inside the demo journal", .tags(.endToEnd))
    func flipped() async throws {
        let (directory, segment) = try await demoCopy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = try Data(contentsOf: URL(fileURLWithPath: segment))
        for offset in stride(from: 20, to: original.count, by: max(1, original.count / 7)) {
            var damaged = original
            damaged[offset] ^= 0x5A
            try damaged.write(to: URL(fileURLWithPath: segment))
            runEverything(on: directory)
        }
    }

    @Test("a segment of random bytes, an empty one, zeros")
    func garbage() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let segment = directory + "/segment-00000000000000000001.lz4"
        var generator = SystemRandomNumberGenerator()
        for contents in [Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }), Data(count: 8192)] {
            try contents.write(to: URL(fileURLWithPath: segment))
            runEverything(on: directory, allowClean: false)
        }
        // An empty last segment is what a crash while creating it leaves: a torn tail, no error.
        try Data().write(to: URL(fileURLWithPath: segment))
        runEverything(on: directory)
    }

    @Test("a segment from a newer format version is refused by name and version")
    func newerFormat() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try CraftedJournal(directory: directory)
        try journal.append(.notificationReceived("foreground"))
        try journal.close()
        let name = "segment-00000000000000000001.lz4"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        // Major version 2 at offset 12, then the header's checksum over its content again.
        bytes[12] = 2
        bytes[14] = 0   // minor version 0: "format 2.0"
        let contentSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let checksum = XXHash32.hash(Array(bytes[8..<(8 + contentSize - 4)]))
        for index in 0..<4 { bytes[8 + contentSize - 4 + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index)) }
        try bytes.write(to: URL(fileURLWithPath: directory + "/" + name))
        let scratch = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for arguments in Self.commands(directory, scratch: scratch) {
            let run = ReplayHarness.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error.contains(name) && run.error.contains("format 2.0") && run.error.contains("1.x"), "\(arguments): \(run.error)")
        }
    }

    @Test("facts whose numbers would overflow the fold, a payload nested a hundred thousand deep, unknown kinds")
    func hostileFacts() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try CraftedJournal(directory: directory)
        typealias J = CraftedJournal
        try journal.appendUnfolded(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules(
            disableDurabilityBoundMilliseconds: .max, moduleHookBoundMilliseconds: .max))))
        try journal.appendUnfolded(.callReceived(J.received(1, .initialize(J.us))))
        try journal.appendUnfolded(.initialized(project: J.us, generation: .max))
        try journal.appendUnfolded(.switchRouted(switch: SwitchID(.max), call: J.call(1), project: J.eu, routing: .started))
        try journal.appendUnfolded(.taskQueued(J.task(.max, call: 1, project: J.us, path: "events/track")))
        try journal.appendUnfolded(.taskDispatched(task: TaskID(3), attempt: .max))
        try journal.appendUnfolded(.durabilityRequested(request: .max, purpose: .flush(J.call(1))))
        try journal.appendUnfolded(.moduleHookStarted(hook: .max, module: "push", event: .start))
        try journal.appendUnfolded(.transportCompleted(TransportCompletion(task: TaskID(3), attempt: .min, outcome: .networkError("x"))))
        try journal.appendUnfolded(.callReceived(J.received(2, .switchProject(ProjectRef(
            fingerprint: J.eu.fingerprint, region: "eu", endpoint: "x", usesJWT: false,
            retry: RetryRules(maxAttempts: .max, baseDelayMilliseconds: .max, maxDelayMilliseconds: .max, jwtRefreshBudget: .max))))))
        try journal.appendRaw(kind: FactKind.callReceived.rawValue, payload: Self.deeplyNestedTrack())
        try journal.appendRaw(kind: 99, payload: Array("from a newer SDK".utf8))
        try journal.appendRaw(kind: FactKind.gateDecided.rawValue, payload: [0xFF, 0xFF, 0xFF])
        try journal.appendUnfolded(.teardownStepFinished(switch: SwitchID(1), step: .disablePush, outcome: .clean, elapsedMicroseconds: .min))
        try journal.appendRaw(kind: FactKind.timerFired.rawValue, payload: [], after: .max / 2)
        try journal.close()
        runEverything(on: directory, allowClean: false)
        let timeline = ReplayHarness.run(["timeline", directory])
        #expect(timeline.out.contains("unknown kind 99"))
        #expect(timeline.error.contains("nests deeper than"))
        #expect(timeline.error.contains("out of range"))
    }

    @Test("times, durations and counts at the ends of their types are shown or refused, never trapped on")
    func numbersAtTheEnds() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try CraftedJournal(directory: directory)
        try journal.appendLaunchOnUS()
        try journal.appendUnfolded(.taskQueued(CraftedJournal.task(1, call: 1, project: CraftedJournal.us, path: "events/track")))
        for edge in [Int64.min, .max] {
            try journal.appendUnfolded(.clockJumped(wall: JournalTime(microsecondsSince1970: edge), jumpMicroseconds: edge))
            try journal.appendUnfolded(.retryScheduled(task: TaskID(1), attempt: edge < 0 ? .min : .max,
                                                       due: JournalTime(microsecondsSince1970: edge), reason: .serverBusy("x", failures: .max)))
            try journal.appendUnfolded(.backgroundTaskBegan(task: .max, budgetMicroseconds: edge))
            try journal.appendUnfolded(.storageWasUnavailable(reason: "x", waitedMicroseconds: edge, attempts: .max, held: .max, refused: .max))
            try journal.appendUnfolded(.teardownStepFinished(switch: SwitchID(1), step: .disablePush, outcome: .clean, elapsedMicroseconds: edge))
        }
        try journal.appendUnfolded(.networkReachable)
        try journal.close()
        runEverything(on: directory)
        let timeline = ReplayHarness.run(["timeline", directory])
        #expect(timeline.out.contains("it reads -290308-12-21T19:59:05.224192Z"), "\(timeline.out)")
        #expect(timeline.out.contains("could not be opened for -9223372036854.7 s"), "\(timeline.out)")
        // A retry folds into a retry timer: bounded as one (an attempt of Int.max is refused).
        #expect(timeline.error.contains("skipped: attempt is out of range"), "\(timeline.error)")
    }

    @Test("every kind of fact, its numbers and times at the ends of their types: every command shows or refuses it, never traps")
    func everyKindAtTheEnds() throws {
        for high in [false, true] {
            let directory = ReplayHarness.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let journal = try CraftedJournal(directory: directory)
            try journal.appendLaunchOnUS()
            for fact in SampleFacts.all {
                try journal.appendUnfolded(try ExtremeFieldSource.fact(fact, high: high))
            }
            try journal.close()
            runEverything(on: directory)
        }
    }

    @Test("reconcile reads past a call whose data alone nests too deep (no verdict reads a call's data); check still names the record")
    func reconcileReadsNoCallData() throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/journal"
        let journal = try CraftedJournal(directory: path)
        try journal.appendLaunchOnUS()
        let nested = try journal.appendRaw(kind: FactKind.callReceived.rawValue, payload: Self.deeplyNestedTrack())
        try journal.close()
        let log = directory + "/received.ndjson"
        #expect(FileManager.default.createFile(atPath: log, contents: Data()))
        let reconcile = ReplayHarness.run(["reconcile", path, "--received", log])
        #expect(reconcile.status == 0, "\(reconcile.out)\(reconcile.error)")
        #expect(!reconcile.error.contains("unreadable"), "\(reconcile.error)")
        let check = ReplayHarness.run(["check", path])
        #expect(check.status == 1)
        #expect(check.error.contains("record \(nested)") && check.error.contains("nests deeper than"), "\(check.error)")
    }

    /// A `callReceived` whose data field nests arrays about 200,000 deep (0.9 MB): the SDK's
    /// codecs decode nested messages recursively and would run out of stack.
    static func deeplyNestedTrack() -> [UInt8] {
        func field(_ number: UInt8, _ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [number << 3 | 2]
            var length = bytes.count
            while length >= 0x80 {
                out.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            out.append(UInt8(length))
            return out + bytes
        }
        // DataValue: field 6 (varint 1) marks an array; field 7 holds each element. Lengths
        // are worked out from the inside, then the levels written from the outside.
        func varint(_ number: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            var rest = number
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            return bytes + [UInt8(rest)]
        }
        var lengths = [2]
        while lengths[lengths.count - 1] < 900_000 {
            let inner = lengths[lengths.count - 1]
            lengths.append(3 + varint(inner).count + inner)
        }
        var value: [UInt8] = []
        value.reserveCapacity(lengths[lengths.count - 1])
        for inner in lengths.dropLast().reversed() { value += [0x30, 0x01, 0x3A] + varint(inner) }
        value += [0x30, 0x01]
        let entry = field(1, Array("k".utf8)) + field(2, value)
        let call: [UInt8] = [0x08, 0x09] + field(3, Array("event".utf8)) + field(4, field(1, entry))
        return field(1, field(1, [UInt8](repeating: 7, count: 16))) + field(3, call)
    }
}
