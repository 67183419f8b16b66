import Dispatch
import Foundation
import Journal
import SDK

/// `bench sdk`: what a public call costs its caller and how many calls per second the engine
/// sustains with journaling on, against the same engine recording through JSON lines and SQLite.
/// Delivery goes through an in-process transport that answers at once, so the network is not
/// what is measured.
struct SDKBenchmark {
    var calls = 200_000
    var rssCalls = 1_000_000
    var peers = ["sdk-journal", "sdk-jsonl", "sdk-sqlite"]
    /// Whether the resident-memory run and the gate's timing follow the calls (off: only the
    /// calls, as `--callgrind` counts them).
    var measuresMemoryAndGate = true
    /// Whether each call is timed on the caller's side (off under `--callgrind`: the clock
    /// reads and the median's sort are the benchmark's own instructions, not the SDK's, and the
    /// caller's median is not reported there).
    var timesCalls = true
    var scratch: String

    struct Row {
        var name: String
        /// Nil when the run is invalid: not every call was delivered.
        var callsPerSecond: Double?
        var callerMedianMicroseconds: Double
        /// How the calls ended, by outcome.
        var outcomes: [String: Int]
        /// The journal's bytes on disk per call (the SDK's own journal only).
        var journalBytesPerCall: Double?
    }

    struct Report {
        var rows: [Row] = []
        var rssGrowthMiB = 0.0
        var rssCalls = 0
        /// The engine's cost of the gate for a call made while no switch runs (median µs).
        var gateMicroseconds = 0.0
    }

    func run(log: @Sendable (String) -> Void) async throws -> Report {
        var report = Report()
        for name in peers {
            log("running \(name)")
            let directory = scratch + "/" + name
            try? FileManager.default.removeItem(atPath: directory)
            let recorder: (any FactRecorder)? = switch name {
            case "sdk-jsonl": try JSONLinesRecorder(directory: directory + "/peer")
            case "sdk-sqlite": try SQLiteRecorder(directory: directory + "/peer")
            default: nil
            }
            let sdk = try Self.makeSDK(directory: directory, recorder: recorder)
            let tally = OutcomeTally()
            let (rate, median) = await Self.measure(sdk, calls: calls, tally: tally, timed: timesCalls)
            await sdk.settle()
            sdk.shutdown()
            let bytes = recorder == nil ? Self.bytes(under: directory + "/journal") : nil
            report.rows.append(Row(name: name, callsPerSecond: tally.allDelivered(calls) ? rate : nil,
                                   callerMedianMicroseconds: median, outcomes: tally.outcomes,
                                   journalBytesPerCall: bytes.map { Double($0) / Double(calls) }))
            if ProcessInfo.processInfo.environment["BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: directory) }
        }
        guard measuresMemoryAndGate else { return report }
        log("resident memory over \(rssCalls) calls")
        let directory = scratch + "/rss"
        try? FileManager.default.removeItem(atPath: directory)
        let sdk = try Self.makeSDK(directory: directory, recorder: nil)
        _ = await Self.measure(sdk, calls: 100_000, tally: OutcomeTally())
        let before = ProcessStats.residentMiB()
        _ = await Self.measure(sdk, calls: rssCalls, tally: OutcomeTally())
        report.rssGrowthMiB = ProcessStats.residentMiB() - before
        report.rssCalls = rssCalls
        sdk.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
        log("the gate, with no switch running")
        report.gateMicroseconds = try Self.measureGate()
        return report
    }

    /// The bytes of the files directly under `directory`.
    static func bytes(under directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0
            return total + size
        }
    }

    /// What the gate adds to a call made while no switch runs. The caller pays nothing for it
    /// (it only posts the call); the engine decides `executed`, encodes that decision, folds it
    /// into the state and appends it to the journal with the call's other facts. This times
    /// exactly those steps, per call, with a journal in memory. Returns the median µs.
    static func measureGate(samples: Int = 200_000) throws -> Double {
        var options = JournalOptions()
        options.storage = InMemoryStorage()
        options.groupCommit = GroupCommit(maxRecords: 64, maxDelay: nil, synchronizesEachGroup: false)
        options.retainedBytes = 16 << 20
        let writer = try JournalWriter(directory: "/gate", options: options) { _ in [] }
        defer { try? writer.close() }
        var state = SDKState()
        let project = ProjectFingerprint(apiKey: "bench-key")
        var times: [Double] = []
        times.reserveCapacity(samples)
        for index in 0..<samples {
            let call = CallID(CallIDGenerator.sequentialUUID(UInt64(index + 1)))
            let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000 + Int64(index))
            let start = DispatchTime.now().uptimeNanoseconds
            let decision = Fact.gateDecided(call: call, decision: !state.switching.isSwitching ? .executed(project: project) : .refused)
            state.evolve(decision, at: time)
            _ = try writer.append(kind: FactCodec.kind(of: decision), timestamp: time, payload: FactCodec.payload(of: decision))
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
        }
        return percentile(times, 0.5)
    }

    static func makeSDK(directory: String, recorder: (any FactRecorder)?) throws -> EngagementSDK {
        let transport = InProcessTransport { _ in .response(status: 200, headers: [:], body: Data(#"{"code":"Success"}"#.utf8)) }
        var configuration = SDKConfiguration(storageDirectory: directory, transport: transport, modules: [],
                                             journalRetainedBytes: 64 << 20)
        configuration.recorderOverride = recorder
        // BENCH_SEGMENT_RECORDS=N: segments (and snapshots) every N records instead of the SDK's default,
        // to measure what snapshot density costs (it reaches the callgrind child too).
        if let records = ProcessInfo.processInfo.environment["BENCH_SEGMENT_RECORDS"].flatMap(Int.init) { configuration.journalSegmentRecords = records }
        let sdk = try EngagementSDK(configuration: configuration)
        sdk.initialize(Project(apiKey: "bench-key")!)
        sdk.setEmail("bench@example.com", completion: nil)
        return sdk
    }

    /// Makes `calls` track calls in bursts of 10,000 made at once (the engine settles after each),
    /// timing each call on the caller's side; returns engine calls/s and the caller's median µs;
    /// `tally` hears each call's outcome. A burst fits the default delivery queue (16,384
    /// events) and goes out in bulk requests; every call must be delivered for the run to count.
    /// Untimed (`timed` false), the calls are the same and the median is 0.
    static func measure(_ sdk: EngagementSDK, calls: Int, tally: OutcomeTally, timed: Bool = true) async -> (Double, Double) {
        let batch = 10_000
        var samples: [Double] = []
        if timed { samples.reserveCapacity(min(calls, 200_000)) }
        let stopwatch = Stopwatch()
        var made = 0
        while made < calls {
            for index in 0..<min(batch, calls - made) {
                let start = timed ? DispatchTime.now().uptimeNanoseconds : 0
                sdk.track("screen_view", dataFields: ["screen": "home", "index": .integer(Int64(index))], completion: tally.completion)
                if timed && samples.count < 200_000 { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000) }
            }
            made += batch
            await sdk.settle()
        }
        return (Double(calls) / stopwatch.seconds, timed ? percentile(samples, 0.5) : 0)
    }
}

/// Renders the SDK benchmark as a table or one JSON object.
enum SDKReportFormatter {
    static func table(_ report: SDKBenchmark.Report) -> String {
        var lines = ["engine               calls/s   caller median (us)"]
        for row in report.rows {
            lines.append(row.name.padding(toLength: 18, withPad: " ", startingAt: 0)
                         + (row.callsPerSecond.map { Format.fixed($0, digits: 0) } ?? "INVALID").leftPadded(10)
                         + Format.fixed(row.callerMedianMicroseconds, digits: 2).leftPadded(21)
                         + (row.journalBytesPerCall.map { "   journal \(Format.fixed($0, digits: 1)) bytes/call" } ?? ""))
            if row.callsPerSecond == nil {
                let how = row.outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                lines.append("  not every call was delivered (\(how)): no rate reported")
            }
        }
        guard report.rssCalls > 0 else { return lines.joined(separator: "\n") }
        lines.append("")
        lines.append("resident memory growth over \(report.rssCalls) calls: \(Format.fixed(report.rssGrowthMiB, digits: 1)) MiB")
        lines.append("the gate, no switch running (engine side, median): \(Format.fixed(report.gateMicroseconds, digits: 3)) us")
        return lines.joined(separator: "\n")
    }

    static func json(_ report: SDKBenchmark.Report) -> String {
        let rows = report.rows.map { row in
            let outcomes = row.outcomes.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            return "{\"name\":\"\(row.name)\",\"valid\":\(row.callsPerSecond != nil),"
                + "\"calls_per_s\":\(row.callsPerSecond.map { Format.fixed($0, digits: 0) } ?? "null"),"
                + "\"caller_median_us\":\(Format.fixed(row.callerMedianMicroseconds, digits: 3)),\"outcomes\":{\(outcomes)},"
                + "\"journal_bytes_per_call\":\(row.journalBytesPerCall.map { Format.fixed($0, digits: 1) } ?? "null")}"
        }
        return "{\"rows\":[\(rows.joined(separator: ","))],\"rss_growth_mib\":\(Format.fixed(report.rssGrowthMiB, digits: 1)),"
            + "\"rss_calls\":\(report.rssCalls),\"gate_us\":\(Format.fixed(report.gateMicroseconds, digits: 3))}"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(1, width - count)) + self
    }
}
