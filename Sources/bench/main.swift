// bench: side-by-side benchmarks. See docs/BENCHMARKS.md for the figures and how to read them.
//
//   swift run -c release bench journal [--records N] [--seek-records N] [--keep DIR] [--json]
import Dispatch
import Foundation
import Locking

let usage = """
    usage: bench journal [--records N] [--seek-records N] [--keep DIR] [--peers NAME,...] [--appends-only] [--json]
           bench blocks [--records N] [--json]
           bench sdk [--calls N] [--rss-calls N] [--peers journal,jsonl,sqlite] [--calls-only] [--untimed] [--json]
           bench sdk --callgrind [--calls N] [--repeat N]
           bench replay [--records N] [--dir DIR | --journal PATH] [--replay PATH] [--moments N] [--runs N] [--json]
           bench offline [--events N] [--minutes N] [--json]
           bench lz4 --journal DIR [--records-per-block N] [--read-only liblz4|swift] [--runs N] [--json]

      journal   the journal (buffered and durable) against JSON lines + fsync/64, SQLite WAL
                with a transaction per 64 rows, and per-record LZ4; then a verified scan, random
                seeks and the scan's peak memory on a larger journal
      blocks    compression ratio and cost by records per LZ4 block (1, 4, 16, 64)
      sdk       public-call cost and engine calls/s with the journal, against the same engine
                recording through JSON lines and SQLite; resident memory over many calls;
                with --callgrind, instructions per track call over all threads (valgrind's
                callgrind: the SDK journal only, N and 3N calls, the difference over 2N; with
                --repeat N, the median of N such runs)
      replay    writes an SDK journal of N records (the real SDK, with switches) or reuses one,
                then times replay's commands over it, each as a child process (wall time and
                peak memory): state --at at random moments, audit, check, recheck, diagnose,
                export to NDJSON; and DuckDB answering "where did each call go" over the export.
                A journal it writes gets its backend's receipt log beside it (DIR/received.ndjson);
                with one, reconcile against it, reading it alone, and DuckDB's same join
      offline   N track calls made while the network is off for some minutes (on a manual
                clock), then the network back and networkBecameReachable(): the requests that
                drain the backlog, in call order, the drain's wall time and resident memory
      lz4       on a kept journal of linked blocks (e.g. bench replay's DIR/journal): its blocks
                compressed again each alone (independent blocks' size) and linked by the Swift
                compressor iOS writes with (size and time against liblz4's), every
                block decoded by liblz4 and by the Swift decoder iOS reads with, then
                a strict read of the journal through each; with
                --records-per-block N, each frame's records cut into blocks of N first; with
                --read-only D, only the strict reads through decoder D (what callgrind counts)
      --events N         offline: track calls made offline (default 16000)
      --minutes N        offline: minutes offline (default 30)
      --records N        records in the side-by-side workload (default 500000; blocks: 200000;
                         replay: 1000000)
      --dir DIR          replay: where the journal is written (default /tmp/bench-replay; a DIR
                         given must not exist or be empty); the journal is DIR/journal, kept
      --journal PATH     replay: measure this journal instead of writing one; lz4: the journal
      --replay PATH      replay: the replay binary (default .build/release/replay)
      --moments N        replay: random moments for state --at (default 20)
      --runs N           replay: runs of each other command and of DuckDB, whose median and
                         max the table gives (default 3); lz4: runs of each decoding (default 5)
      --seek-records N   records in the journal used for scan, seek and memory (default 10000000)
      --keep DIR         leave the buffered journal of the workload in DIR
      --peers NAME,...   journal: run only these peers (journal-buffered, journal-durable,
                         jsonl-fsync64, sqlite-wal-txn64, lz4-per-record)
      --appends-only     journal: skip the scan, seeks and scan memory
      --calls-only       sdk: only the calls (no memory run, no gate timing)
      --untimed          sdk: do not time each call on the caller's side (the caller's median
                         is then 0); --callgrind runs its children so, to count the SDK's
                         instructions and not the benchmark's clock reads
      --json             one JSON object on stdout
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    exit(2)
}

/// The command line, consumed option by option.
struct BenchArguments {
    var remaining: [String]

    mutating func take(_ name: String) -> String? {
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else { fail("\(name) needs a value") }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    mutating func takeCount(_ name: String) -> Int? {
        take(name).map { text in
            guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0 else { fail("\(name) expects a positive count") }
            return value
        }
    }

    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }
}

var arguments = BenchArguments(remaining: Array(CommandLine.arguments.dropFirst()))
guard let suite = arguments.remaining.first else { fail(usage) }
arguments.remaining.removeFirst()

if suite == "_scan-rss", let directory = arguments.remaining.first {
    do { try JournalBenchmark.scanAndReportPeak(directory) } catch { fail("\(error)") }
    exit(0)
}

let json = arguments.flag("--json")
/// Runs an async benchmark from the top-level code and waits for it; an error ends the process.
func runToCompletion<Report: Sendable>(_ body: @escaping @Sendable () async throws -> Report) -> Report {
    let outcome = Locked<Result<Report, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            let report = try await body()
            outcome.withLock { $0 = .success(report) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    switch outcome.withLock({ $0 }) {
    case .success(let report)?: return report
    case .failure(let error)?: fail("\(error)")
    case nil: fail("no result")
    }
}

let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }

switch suite {
case "journal":
    let scratch = NSTemporaryDirectory() + "bench-\(ProcessInfo.processInfo.processIdentifier)"
    var benchmark = JournalBenchmark(scratch: scratch)
    benchmark.records = arguments.takeCount("--records") ?? benchmark.records
    benchmark.seekRecords = arguments.takeCount("--seek-records") ?? benchmark.seekRecords
    benchmark.keep = arguments.take("--keep")
    benchmark.peerNames = arguments.take("--peers").map { $0.split(separator: ",").map(String.init) }
    benchmark.scans = !arguments.flag("--appends-only")
    guard arguments.remaining.isEmpty else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    do {
        let report = try benchmark.run(log: log)
        try? FileManager.default.removeItem(atPath: scratch)
        print(json ? JournalReportFormatter.json(report) : JournalReportFormatter.table(report))
    } catch {
        try? FileManager.default.removeItem(atPath: scratch)
        fail("\(error)")
    }
case "blocks":
    var benchmark = BlockGranularityBenchmark()
    benchmark.records = arguments.takeCount("--records") ?? benchmark.records
    guard arguments.remaining.isEmpty else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    let rows: [BlockGranularityBenchmark.Row]
    do { rows = try benchmark.run() } catch { fail("\(error)") }
    if json {
        let items = rows.map { "{\"records_per_block\":\($0.recordsPerBlock),\"ratio\":\(Format.fixed($0.ratio, digits: 3)),"
            + "\"share_of_ceiling\":\(Format.fixed($0.shareOfCeiling, digits: 3)),\"us_per_record\":\(Format.fixed($0.microsecondsPerRecord, digits: 3))}" }
        print("{\"rows\":[\(items.joined(separator: ","))]}")
    } else {
        print("records/block   ratio   share of ceiling   us/record")
        for row in rows {
            print("\(row.recordsPerBlock)".padding(toLength: 16, withPad: " ", startingAt: 0)
                  + "\(Format.fixed(row.ratio, digits: 2))x".padding(toLength: 8, withPad: " ", startingAt: 0)
                  + "\(Format.fixed(row.shareOfCeiling * 100, digits: 1))%".padding(toLength: 19, withPad: " ", startingAt: 0)
                  + Format.fixed(row.microsecondsPerRecord, digits: 3))
        }
    }
case "sdk" where arguments.flag("--callgrind"):
    let calls = arguments.takeCount("--calls") ?? 10_000
    // The snapshots a run writes hold whatever a burst left pending when a segment began, which
    // depends on how the threads interleaved: a single figure moves by a few percent.
    let repeats = arguments.takeCount("--repeat") ?? 1
    guard arguments.remaining.isEmpty, repeats >= 1 else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    var runs: [(small: CallgrindRun.Result, large: CallgrindRun.Result, perCall: Double)] = []
    for _ in 0..<repeats {
        let small = CallgrindRun.instructions(calls: calls)
        let large = CallgrindRun.instructions(calls: 3 * calls)
        runs.append((small, large, Double(large.instructions - small.instructions) / Double(2 * calls)))
    }
    let perCalls = runs.map(\.perCall).sorted()
    let median = perCalls[perCalls.count / 2]
    if json {
        let each = runs.map { Format.fixed($0.perCall, digits: 0) }.joined(separator: ",")
        let bytes = runs.map { $0.large.journalBytesPerCall ?? "null" }.joined(separator: ",")
        print("{\"calls\":[\(calls),\(3 * calls)],\"instructions_per_call\":\(Format.fixed(median, digits: 0)),"
              + "\"runs\":[\(each)],\"journal_bytes_per_call\":[\(bytes)]}")
    } else {
        for run in runs {
            print("instructions over all threads: \(run.small.instructions) for \(calls) calls, \(run.large.instructions) for \(3 * calls): "
                  + "\(Format.fixed(run.perCall, digits: 0)) per call, journal \(run.large.journalBytesPerCall ?? "?") bytes per call")
        }
        print("instructions per track call: \(Format.fixed(median, digits: 0)) (the difference over \(2 * calls) calls"
              + (repeats > 1 ? "; the median of \(repeats) runs, \(Format.fixed(perCalls[0], digits: 0))–\(Format.fixed(perCalls[perCalls.count - 1], digits: 0)))" : ")"))
    }
case "sdk":
    let scratch = NSTemporaryDirectory() + "bench-sdk-\(ProcessInfo.processInfo.processIdentifier)"
    var benchmark = SDKBenchmark(scratch: scratch)
    benchmark.calls = arguments.takeCount("--calls") ?? benchmark.calls
    benchmark.rssCalls = arguments.takeCount("--rss-calls") ?? benchmark.rssCalls
    if let peers = arguments.take("--peers") { benchmark.peers = peers.split(separator: ",").map { "sdk-" + $0 } }
    benchmark.measuresMemoryAndGate = !arguments.flag("--calls-only")
    benchmark.timesCalls = !arguments.flag("--untimed")
    guard arguments.remaining.isEmpty else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    let frozen = benchmark
    let report = runToCompletion { try await frozen.run(log: log) }
    if ProcessInfo.processInfo.environment["BENCH_KEEP"] == nil {
        try? FileManager.default.removeItem(atPath: scratch)
    } else {
        log("kept the journals under \(scratch) (BENCH_KEEP)")
    }
    print(json ? SDKReportFormatter.json(report) : SDKReportFormatter.table(report))
case "replay":
    var benchmark = ReplayBenchmark(directory: "/tmp/bench-replay")
    benchmark.records = arguments.takeCount("--records") ?? benchmark.records
    benchmark.moments = arguments.takeCount("--moments") ?? benchmark.moments
    benchmark.runs = arguments.takeCount("--runs") ?? benchmark.runs
    if let directory = arguments.take("--dir") {
        benchmark.directory = directory
        benchmark.ownsDirectory = false
    }
    benchmark.journal = arguments.take("--journal")
    benchmark.replay = arguments.take("--replay") ?? benchmark.replay
    guard arguments.remaining.isEmpty else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    let frozen = benchmark
    let report = runToCompletion { try await frozen.run(log: log) }
    print(json ? ReplayReportFormatter.json(report) : ReplayReportFormatter.table(report))
case "offline":
    var benchmark = OfflineBenchmark(scratch: NSTemporaryDirectory() + "bench-offline-\(ProcessInfo.processInfo.processIdentifier)")
    benchmark.events = arguments.takeCount("--events") ?? benchmark.events
    if let minutes = arguments.takeCount("--minutes") { benchmark.offline = .seconds(minutes * 60) }
    guard arguments.remaining.isEmpty else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    let frozen = benchmark
    let report = runToCompletion { try await frozen.run(log: log) }
    print(json ? OfflineReportFormatter.json(report) : OfflineReportFormatter.table(report))
case "lz4":
    guard let journal = arguments.take("--journal") else { fail("lz4 needs --journal DIR\n\(usage)") }
    var benchmark = BlockModeBenchmark(journal: journal)
    benchmark.runs = arguments.takeCount("--runs") ?? benchmark.runs
    benchmark.recordsPerBlock = arguments.takeCount("--records-per-block")
    switch arguments.take("--read-only") {
    case nil: break
    case "liblz4": benchmark.readOnly = .liblz4
    case "swift": benchmark.readOnly = .swift
    case let other?: fail("--read-only takes liblz4 or swift, not \(other)\n\(usage)")
    }
    guard arguments.remaining.isEmpty else { fail("unexpected arguments: \(arguments.remaining.joined(separator: " "))\n\(usage)") }
    do {
        let report = try benchmark.run(log: log)
        print(json ? BlockModeReportFormatter.json(report) : BlockModeReportFormatter.table(report))
    } catch {
        fail("\(error)")
    }
case "--help", "-h", "help":
    print(usage)
default:
    fail("unknown suite '\(suite)'\n\(usage)")
}
