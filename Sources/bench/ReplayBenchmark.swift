import Foundation
import Journal
import SDK
import SDKTesting
#if canImport(Glibc)
import Glibc
#endif

/// `bench replay` (issue 15, item 3): `replay`'s commands over a long journal written by the real
/// SDK, each run as a whole child process of the release `replay` binary, timed on the wall clock
/// with the child's peak resident memory (`ru_maxrss` from `wait4`); and, in the same run, the
/// peer a team would reach for instead: DuckDB answering "where did each call go" over the
/// journal's NDJSON export.
struct ReplayBenchmark {
    var records = 1_000_000
    /// Where the journal is written (its SDK storage; the journal is `directory/journal`).
    var directory: String
    /// An existing journal to measure instead of writing one.
    var journal: String?
    var replay = ".build/release/replay"
    var python = "python3"
    var moments = 20
    /// Runs of each command (and of the peer), in turn: the rows give their median and max, as
    /// one run on a noisy machine says little.
    var runs = 3
    /// Calls between two switches (US to EU and back): about 200 switches per million records.
    var switchEvery = 725
    /// Whether `directory` is bench's own (the default) and may be emptied first; a directory
    /// given with `--dir` must not exist or be empty.
    var ownsDirectory = true

    struct Row {
        var command: String
        /// Wall seconds of each run (``runs`` of each command; one per moment for `state --at`).
        var seconds: [Double]
        var peakMiB: Double
        /// Exit statuses seen (0 fine, 1 findings).
        var statuses: Set<Int32>
        /// This row's median over DuckDB's, where the same question was asked of both.
        var ratioToDuckDB: Double?

        var median: Double { percentile(seconds, 0.5) }
        var max: Double { seconds.max() ?? 0 }

        /// Adds one run of the command: its time, its peak (the row keeps the largest) and its status.
        mutating func record(_ run: ChildProcess.Run) {
            seconds.append(run.seconds)
            peakMiB = Swift.max(peakMiB, run.peakMiB)
            statuses.insert(run.status)
        }
    }

    struct Report {
        var journal = ""
        var records = 0
        var segments = 0
        var fileBytes = 0
        var calls: Int?
        var switches: Int?
        var writeSeconds: Double?
        var ndjsonBytes = 0
        var moments: [UInt64] = []
        var rows: [Row] = []
        /// Why the DuckDB peer did not run, when it did not.
        var duckdbSkipped: String?
        /// Why the Parquet peer did not run, when DuckDB did but could not write the file.
        var parquetSkipped: String?
        var duckdbCalls: Int?
        /// The receipt log's lines (when bench wrote the journal, or found its log beside it).
        var receiptLines: Int?
    }

    /// Where the receipt log of the journal at `journal` is kept: beside it.
    static func receiptLog(ofJournal journal: String) -> String {
        // (URL's, not NSString's `deletingLastPathComponent`, which traps on a one-character path.)
        URL(fileURLWithPath: journal).deletingLastPathComponent().path + "/received.ndjson"
    }

    func run(log: @Sendable (String) -> Void) async throws -> Report {
        var report = Report()
        guard FileManager.default.isExecutableFile(atPath: replay) else {
            throw BenchError("no replay binary at \(replay) (build it: swift build -c release --product replay, or pass --replay PATH)")
        }
        let path: String
        if let journal {
            path = journal
        } else {
            path = directory + "/journal"
            if ownsDirectory {
                try? FileManager.default.removeItem(atPath: directory)
            } else if let entries = try? FileManager.default.contentsOfDirectory(atPath: directory), !entries.isEmpty {
                throw BenchError("--dir \(directory) is not empty (give a new directory, or --journal PATH to reuse a journal)")
            }
            log("writing a journal of \(records) records with the SDK into \(path), and its backend's receipt log")
            let stopwatch = Stopwatch()
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let recorder = try ReceiptRecorder(path: Self.receiptLog(ofJournal: path), regions: ["bench-us-key": "us", "bench-eu-key": "eu"])
            let written = try await Self.writeJournal(storage: directory, records: records, switchEvery: switchEvery, receipts: recorder, log: log)
            report.receiptLines = try recorder.close()
            report.writeSeconds = stopwatch.seconds
            report.calls = written.calls
            report.switches = written.switches
            log("wrote \(written.records) records (\(written.calls) calls, \(written.switches) switches) in \(Format.fixed(stopwatch.seconds, digits: 1)) s")
        }
        report.journal = path
        let info = try Self.info(replay: replay, journal: path)
        report.records = info.records
        report.segments = info.segments
        report.fileBytes = info.fileBytes
        guard info.records > 0 else { throw BenchError("\(path) holds no records") }

        let scratch = NSTemporaryDirectory() + "bench-replay-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: scratch)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        // Random moments, the same for the same journal length.
        var generator = SplitMix64(seed: 0x5EED ^ UInt64(info.records))
        report.moments = (0..<moments).map { _ in UInt64(1 + generator.next() % UInt64(info.records)) }
        log("replay state --at: \(moments) random moments")
        let output = scratch + "/stdout"
        var state = Row(command: "state --at (\(moments) moments)", seconds: [], peakMiB: 0, statuses: [])
        for moment in report.moments {
            state.record(try Self.provenRun(replay, ["state", "--at", String(moment), path], output: output, scratch: scratch,
                                            prove: { Self.firstLine(of: $0).contains("for sequence \(moment)") ? nil : "no state for sequence \(moment)" }))
        }
        report.rows.append(state)

        // What each run must have printed (or written) to count: its work over the whole journal.
        let ndjson = scratch + "/export.ndjson"
        var auditCalls: Int?
        let auditProof: (String) throws -> String? = { output in
            let calls = Self.callRows(inAuditOutput: output)
            if calls == 0 { return "no call rows" }
            if let first = auditCalls, first != calls { return "\(calls) call rows, \(first) in the first run" }
            auditCalls = calls
            return nil
        }
        let checkProof: (String) throws -> String? = { output in
            Self.number(after: "rules over ", in: Self.firstLine(of: output)) == info.records ? nil : "not all \(info.records) records checked"
        }
        let diagnoseProof: (String) throws -> String? = { output in
            let switches = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))) as? [Any]
            return (switches?.isEmpty ?? true) ? "no switch diagnosed" : nil
        }
        let exportProof: (String) throws -> String? = { _ in
            let rows = try Self.lineCount(ndjson)
            return rows == info.records ? nil : "\(rows) rows for \(info.records) records"
        }
        // `audit`, `check`, `diagnose` and `export` in order (--jobs 1), then their segments on every core (the default,
        // given as `--jobs` so that replay says on standard error when it walked some segments in order instead:
        // `provenRun` refuses such a run, which would be timed under the split's name).
        let cores = ["--jobs", String(ProcessInfo.processInfo.activeProcessorCount)]
        let commands: [(name: String, arguments: [String], prove: (String) throws -> String?)] = [
            ("audit --json --jobs 1", ["audit", "--json", "--jobs", "1", path], auditProof),
            ("audit --json", ["audit", "--json"] + cores + [path], auditProof),
            ("check --jobs 1", ["check", "--jobs", "1", path], checkProof),
            ("check", ["check"] + cores + [path], checkProof),
            ("recheck", ["recheck", path], { output in
                let said = Self.lastLine(of: output)
                guard let rechecked = Self.number(after: "recheck: ", in: said), rechecked > 0,
                      rechecked == Self.number(after: " of ", in: said) else { return "not every input rechecked: \(said)" }
                return nil
            }),
            ("diagnose --json --jobs 1", ["diagnose", "--json", "--jobs", "1", path], diagnoseProof),
            ("diagnose --json", ["diagnose", "--json"] + cores + [path], diagnoseProof),
            ("export --redact --format ndjson --jobs 1", ["export", "--redact", "--format", "ndjson", "--jobs", "1", "-o", ndjson, path],
             exportProof),
            ("export --redact --format ndjson", ["export", "--redact", "--format", "ndjson"] + cores + ["-o", ndjson, path], exportProof),
        ]
        for command in commands {
            log("replay \(command.name) (\(runs == 1 ? "1 run" : "\(runs) runs"))")
            var row = Row(command: command.name, seconds: [], peakMiB: 0, statuses: [])
            for _ in 0..<runs {
                // The export will not overwrite a file: each run writes the same one anew.
                try? FileManager.default.removeItem(atPath: ndjson)
                row.record(try Self.provenRun(replay, command.arguments, output: output, scratch: scratch, prove: command.prove))
            }
            report.rows.append(row)
        }
        report.ndjsonBytes = ((try? FileManager.default.attributesOfItem(atPath: ndjson)[.size]) as? Int) ?? 0

        // reconcile: the journal against its backend's receipt log, beside reading the log alone.
        let receipts = Self.receiptLog(ofJournal: path)
        if FileManager.default.fileExists(atPath: receipts) {
            let lines = try report.receiptLines ?? Self.lineCount(receipts)
            report.receiptLines = lines
            log("replay reconcile against \(lines) receipt lines (\(runs == 1 ? "1 run" : "\(runs) runs")), and reading the log alone")
            // The one pass (its default window, and a second's: the bench's journal is written
            // in seconds, so a minute holds all of it), and the journals read whole first.
            for options in [[], ["--window", "1000"], ["--whole"]] {
                var row = Row(command: (["reconcile", "--json"] + options).joined(separator: " "), seconds: [], peakMiB: 0, statuses: [])
                for _ in 0..<runs {
                    row.record(try Self.provenRun(replay, ["reconcile", "--json"] + options + [path, "--received", receipts], output: output,
                                                  scratch: scratch, prove: { output in
                        let summary = Self.lastLine(of: output)
                        return summary.contains(#""agreed":\#(lines)}"#) && summary.contains(#""elsewhere":0,"lost":0,"duplicate":0"#)
                            ? nil : "not all \(lines) receipts agreed: \(summary.prefix(300))"
                    }))
                }
                report.rows.append(row)
            }
            var reading = Row(command: "reading the receipt log (wc -l)", seconds: [], peakMiB: 0, statuses: [])
            for _ in 0..<runs {
                // Counted as read only when it counted every line.
                let run = try ChildProcess.run("wc", ["-l", receipts], stdout: scratch + "/wc.out", stderr: scratch + "/stderr")
                let counted = Self.firstLine(of: scratch + "/wc.out").split(separator: " ").first.flatMap { Int($0) }
                guard run.status == 0, run.signal == 0, counted == lines else {
                    throw BenchError("wc -l read \(counted.map(String.init) ?? "nothing") of the receipt log's \(lines) lines")
                }
                reading.record(run)
            }
            report.rows.append(reading)
            if report.duckdbSkipped == nil, FileManager.default.fileExists(atPath: ndjson) {
                log("the peer: DuckDB, the same join over the NDJSON export and the receipt log")
                let script = scratch + "/reconcile.py"
                try Data(Self.duckdbReconcileScript.utf8).write(to: URL(fileURLWithPath: script))
                let answer = scratch + "/reconcile.csv"
                var peer = Row(command: "duckdb: reconcile export with receipt log (peer)", seconds: [], peakMiB: 0, statuses: [])
                for _ in 0..<runs {
                    try? FileManager.default.removeItem(atPath: answer)
                    let run = try ChildProcess.run(python, [script, ndjson, receipts, answer], stdout: scratch + "/duckdb.out", stderr: scratch + "/stderr")
                    let out = ((try? String(contentsOfFile: scratch + "/duckdb.out", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    guard run.status == 0, run.signal == 0, out == "agreed=\(lines)" else {
                        let message = (try? String(contentsOfFile: scratch + "/stderr", encoding: .utf8)) ?? ""
                        throw BenchError("DuckDB's reconciliation did not agree on every one of \(lines) receipts: \(out) \(message.suffix(400))")
                    }
                    peer.record(run)
                }
                for mine in report.rows.indices where report.rows[mine].command.hasPrefix("reconcile --json") {
                    report.rows[mine].ratioToDuckDB = report.rows[mine].median / peer.median
                }
                report.rows.append(peer)
            }
        }

        log("the peer: DuckDB, where did each call go, over the NDJSON export, then over it in Parquet")
        let probe = try ChildProcess.run(python, ["-c", "import duckdb"], stderr: scratch + "/stderr")
        if probe.status != 0 || probe.signal != 0 {
            report.duckdbSkipped = "\(python) -c 'import duckdb' failed (status \(probe.status)); scripts/install-fleet-deps.sh duckdb installs it"
        } else {
            let script = scratch + "/where_calls_went.py"
            try Data(Self.duckdbScript.utf8).write(to: URL(fileURLWithPath: script))
            // DuckDB writes the Parquet file from the export first (not timed): the stronger anchor.
            let parquet = scratch + "/export.parquet"
            let writer = scratch + "/write_parquet.py"
            try Data(Self.duckdbParquetScript.utf8).write(to: URL(fileURLWithPath: writer))
            try? FileManager.default.removeItem(atPath: parquet)
            let written = try ChildProcess.run(python, [writer, ndjson, parquet], stderr: scratch + "/stderr")
            var sources = [(ndjson, "duckdb: where did each call go (peer)")]
            if written.status == 0 && written.signal == 0 {
                sources.append((parquet, "duckdb over Parquet: the same (peer)"))
            } else {
                report.parquetSkipped = "DuckDB could not write the Parquet file (status \(written.status))"
            }
            for (source, name) in sources {
                let answer = scratch + "/where_calls_went.csv"
                var peer = Row(command: name, seconds: [], peakMiB: 0, statuses: [])
                for _ in 0..<runs {
                    try? FileManager.default.removeItem(atPath: answer)
                    let run = try ChildProcess.run(python, [script, source, answer], stdout: scratch + "/duckdb.out", stderr: scratch + "/stderr")
                    if run.status != 0 || run.signal != 0 {
                        let message = (try? String(contentsOfFile: scratch + "/stderr", encoding: .utf8)) ?? ""
                        report.duckdbSkipped = "the DuckDB query failed (status \(run.status)): \(message.suffix(400))"
                        break
                    }
                    // The peer must have answered the same question: a row for every call audit saw.
                    let out = (try? String(contentsOfFile: scratch + "/duckdb.out", encoding: .utf8)) ?? ""
                    report.duckdbCalls = Int(out.trimmingCharacters(in: .whitespacesAndNewlines))
                    guard report.duckdbCalls == auditCalls else {
                        throw BenchError("DuckDB answered for \(report.duckdbCalls.map(String.init) ?? "no") calls, replay audit for \(auditCalls.map(String.init) ?? "no"): not the same question")
                    }
                    peer.record(run)
                }
                guard report.duckdbSkipped == nil else { break }
                if source == ndjson, let audit = report.rows.firstIndex(where: { $0.command == "audit --json" }) {
                    report.rows[audit].ratioToDuckDB = report.rows[audit].median / peer.median
                }
                report.rows.append(peer)
            }
            try? FileManager.default.removeItem(atPath: parquet)
        }
        return report
    }

    /// How both scripts over the NDJSON export begin: their arguments (the export, the file to
    /// write), and `spec`, the export's columns the question reads with their types.
    static let duckdbScriptHead = #"""
    import sys, duckdb
    ndjson, out = sys.argv[1], sys.argv[2]
    columns = {"seq": "BIGINT", "kind": "VARCHAR", "call_id": "VARCHAR", "call_name": "VARCHAR",
               "live_project": "VARCHAR", "row_project": "VARCHAR", "task_id": "BIGINT",
               "gate_decision": "VARCHAR", "outcome_status": "VARCHAR", "outcome_reason": "VARCHAR"}
    spec = "{" + ", ".join(f"'{k}': '{v}'" for k, v in columns.items()) + "}"
    """#

    /// The peer's question, the one `replay audit` answers: for every public call, the project
    /// it was made on, the gate's last decision, the project its request went to, and how it
    /// ended. One row per call, written to a CSV file (as `audit --json` writes one per call);
    /// prints the number of calls. Timed as a whole process, DuckDB's start included, as
    /// `replay` is.
    static let duckdbScript = #"""
    \#(duckdbScriptHead)
    db = duckdb.connect()
    path = ndjson.replace("'", "''")
    if path.endswith(".parquet"):
        db.execute(f"CREATE VIEW rows AS SELECT * FROM read_parquet('{path}')")
    else:
        db.execute(f"CREATE VIEW rows AS SELECT * FROM read_json('{path}', format = 'newline_delimited', columns = {spec})")
    query = """
    WITH received AS (
        SELECT call_id, seq, call_name, live_project FROM rows WHERE kind = 'callReceived'
    ), decisions AS (
        SELECT call_id, arg_max(gate_decision, seq) AS gate_decision FROM rows WHERE gate_decision IS NOT NULL GROUP BY call_id
    ), tasks AS (
        SELECT call_id, arg_max(row_project, seq) AS went_to FROM rows WHERE kind IN ('taskQueued', 'eventBatched') AND call_id IS NOT NULL GROUP BY call_id
    ), carried AS (
        SELECT call_id, task_id FROM rows WHERE kind IN ('taskQueued', 'eventBatched') AND call_id IS NOT NULL
    ), resolutions AS (
        SELECT call_id, seq, outcome_status, outcome_reason FROM rows WHERE kind = 'callResolved'
        UNION ALL
        SELECT c.call_id, b.seq, b.outcome_status, b.outcome_reason
        FROM rows b JOIN carried c ON c.task_id = b.task_id WHERE b.kind = 'callsResolved'
    ), resolved AS (
        SELECT call_id, arg_max(outcome_status, seq) AS status, arg_max(outcome_reason, seq) AS reason
        FROM resolutions GROUP BY call_id
    )
    SELECT r.seq, r.call_id, r.call_name, r.live_project, COALESCE(d.gate_decision, 'none') AS gate,
           t.went_to, COALESCE(s.status, 'pending') AS status, s.reason
    FROM received r
    LEFT JOIN decisions d USING (call_id) LEFT JOIN tasks t USING (call_id) LEFT JOIN resolved s USING (call_id)
    ORDER BY r.seq
    """
    written = db.execute(f"COPY ({query}) TO '{out.replace(chr(39), chr(39) * 2)}' (FORMAT CSV, HEADER)").fetchone()
    print(written[0])
    """#

    /// Writes the NDJSON export's columns the question reads as a Parquet file (DuckDB's own
    /// writer, zstd): what a team would keep to query, written once, not timed.
    static let duckdbParquetScript = #"""
    \#(duckdbScriptHead)
    path = ndjson.replace("'", "''")
    duckdb.connect().execute(f"COPY (SELECT * FROM read_json('{path}', format = 'newline_delimited', columns = {spec})) "
                             f"TO '{out.replace(chr(39), chr(39) * 2)}' (FORMAT PARQUET, COMPRESSION ZSTD)")
    """#

    /// The peer's reconciliation, the join `replay reconcile` makes: each call a task carried
    /// (from the NDJSON export), its wire id derived as docs/RECONCILE.md says (SHA-256 over
    /// `call`, the journal id and the call id; `task`, the journal id, the task number and its
    /// creation time for the SDK's own), joined with the receipt log, and a verdict from the
    /// receipts and the task's outcome (`late` left out). Writes one row per call to a CSV file
    /// and prints the verdicts' counts.
    static let duckdbReconcileScript = #"""
    import sys, duckdb
    ndjson, receipts, out = sys.argv[1], sys.argv[2], sys.argv[3]
    q = lambda p: p.replace("'", "''")
    db = duckdb.connect()
    # The wire's callId (docs/RECONCILE.md): the call id's two words mixed under the journal id's
    # (each mixed first) by SplitMix64's finalizer, in 64-bit arithmetic (products taken modulo
    # 2^64 in UHUGEINT).
    for macro in [
        "mixa(z) AS ((xor(z, z >> 30)::UHUGEINT * 13787848793156543929::UHUGEINT) % 18446744073709551616::UHUGEINT)::UBIGINT",
        "mixb(y) AS ((xor(y, y >> 27)::UHUGEINT * 10723151780598845931::UHUGEINT) % 18446744073709551616::UHUGEINT)::UBIGINT",
        "mix64(z) AS xor(mixb(mixa(z)), mixb(mixa(z)) >> 31)",
        "word(uuid, half) AS ('0x' || substr(replace(uuid, '-', ''), 16 * half + 1, 16))::UBIGINT",
        "rotl29(l) AS ((l::UHUGEINT << 29) % 18446744073709551616::UHUGEINT)::UBIGINT | (l >> 35)",
        "wire_high(stream, hi, lo) AS mix64(xor(xor(mix64(word(stream, 0)), hi), rotl29(lo)))",
        "wire_id(stream, hi, lo) AS lpad(printf('%x', wire_high(stream, hi, lo)), 16, '0') || "
        "lpad(printf('%x', mix64(xor(xor(mix64(word(stream, 1)), lo), wire_high(stream, hi, lo)))), 16, '0')",
    ]:
        db.execute("CREATE MACRO " + macro)
    rows = "{'seq': 'BIGINT', 'kind': 'VARCHAR', 'journal_id': 'VARCHAR', 'call_id': 'VARCHAR', 'row_project': 'VARCHAR', 'task_id': 'BIGINT', 'outcome_status': 'VARCHAR', 'task': 'JSON'}"
    db.execute(f"CREATE VIEW rows AS SELECT * FROM read_json('{q(ndjson)}', format = 'newline_delimited', columns = {rows})")
    recs = "{'project': 'VARCHAR', 'call_id': 'VARCHAR', 'status': 'INTEGER', 'duplicate': 'BOOLEAN'}"
    db.execute(f"CREATE VIEW receipts AS SELECT * FROM read_json('{q(receipts)}', format = 'newline_delimited', columns = {recs})")
    query = """
    WITH carried AS (
        SELECT journal_id, call_id, task_id, seq, row_project, json_extract_string(task, '$.created_at') AS created_at, kind
        FROM rows WHERE kind IN ('taskQueued', 'eventBatched')
    ), sent AS (
        SELECT journal_id, call_id, arg_max(task_id, seq) AS task_id, arg_max(row_project, seq) AS project,
               wire_id(journal_id, word(call_id, 0), word(call_id, 1)) AS wire_id
        FROM carried WHERE call_id IS NOT NULL GROUP BY journal_id, call_id
        UNION ALL
        SELECT journal_id, NULL, task_id, row_project,
               wire_id(journal_id, task_id::UBIGINT | 9223372036854775808::UBIGINT, epoch_us(created_at::TIMESTAMP)::UBIGINT)
        FROM carried WHERE call_id IS NULL AND kind = 'taskQueued'
    ), completed AS (
        SELECT journal_id, task_id, arg_max(outcome_status, seq) AS status FROM rows WHERE kind = 'taskCompleted' GROUP BY journal_id, task_id
    ), judged AS (
        SELECT s.wire_id, s.project, COALESCE(c.status, 'pending') AS status,
               count(r.call_id) FILTER (WHERE r.status BETWEEN 200 AND 299) AS held,
               count(r.call_id) FILTER (WHERE r.status BETWEEN 200 AND 299 AND NOT COALESCE(r.duplicate, false)) AS takings,
               COALESCE(bool_or(r.project <> s.project), false) AS elsewhere
        FROM sent s LEFT JOIN receipts r ON r.call_id = s.wire_id LEFT JOIN completed c USING (journal_id, task_id)
        GROUP BY ALL
    )
    SELECT wire_id, project, status,
           CASE WHEN elsewhere THEN 'elsewhere'
                WHEN held = 0 AND status = 'delivered' THEN 'lost'
                WHEN held = 0 THEN 'agreed'
                WHEN takings > 1 THEN 'duplicate'
                WHEN status = 'delivered' THEN 'agreed'
                ELSE 'unconfirmed' END AS verdict
    FROM judged
    """
    db.execute(f"COPY ({query}) TO '{q(out)}' (FORMAT CSV, HEADER)")
    print(" ".join(f"{v}={n}" for v, n in db.execute(f"SELECT verdict, count(*) FROM read_csv('{q(out)}') GROUP BY verdict ORDER BY verdict").fetchall()))
    """#

    /// How many calls `replay audit --json` wrote a row for (its last line is a summary).
    static func callRows(inAuditOutput path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        var rows = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array(#"{"call":"#.utf8)) { rows += 1 }
        return rows
    }

    /// Runs `replay` with `arguments`, its standard output to `output`, and keeps the run only
    /// if it ended with 0 or 1 (findings) and `prove` finds in the output the work the command
    /// is named for (nil); else throws, saying what was missing. A run that did not do the work
    /// is never timed.
    static func provenRun(_ replay: String, _ arguments: [String], output: String, scratch: String,
                          prove: (String) throws -> String?) throws -> ChildProcess.Run {
        let run = try ChildProcess.run(replay, arguments, stdout: output, stderr: scratch + "/stderr")
        let name = "replay " + arguments.dropLast().joined(separator: " ")
        if run.status > 1 || run.signal != 0 {
            let message = (try? String(contentsOfFile: scratch + "/stderr", encoding: .utf8)) ?? ""
            throw BenchError("\(name) failed (status \(run.status), signal \(run.signal)): \(message.suffix(400))")
        }
        if let missing = try prove(output) { throw BenchError("\(name) did not do its work: \(missing)") }
        // `--jobs J` above 1 must have split the journal: replay says on standard error when it did not.
        if let given = arguments.firstIndex(of: "--jobs"), given + 1 < arguments.count, let jobs = Int(arguments[given + 1]), jobs > 1 {
            // An unreadable standard error holds no note: the run's own proof above stands.
            let said = (try? String(contentsOfFile: scratch + "/stderr", encoding: .utf8)) ?? ""
            if said.contains("walked in order") { throw BenchError("\(name) did not split the journal: \(said.prefix(300))") }
        }
        return run
    }

    /// The first and last lines of a small text file ("" when unreadable).
    static func firstLine(of path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init) ?? ""
    }

    static func lastLine(of path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The number written right after `marker` in `text` (digits and thousands commas), if any.
    static func number(after marker: String, in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)
        return Int(digits)
    }

    /// The lines of the file at `path`, read a mebibyte at a time (an export of 10 M records is
    /// several GiB).
    static func lineCount(_ path: String) throws -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError("cannot read \(path)") }
        defer { try? handle.close() }
        var lines = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            lines += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        return lines
    }

    /// `replay info --json`'s records, segments and bytes.
    static func info(replay: String, journal: String) throws -> (records: Int, segments: Int, fileBytes: Int) {
        let out = NSTemporaryDirectory() + "bench-replay-info-\(ProcessInfo.processInfo.processIdentifier).json"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let run = try ChildProcess.run(replay, ["info", "--json", journal], stdout: out)
        guard run.status <= 1, let data = FileManager.default.contents(atPath: out),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError("replay info --json \(journal) failed (status \(run.status))")
        }
        return (object["records"] as? Int ?? 0, object["segments"] as? Int ?? 0, object["file_bytes"] as? Int ?? 0)
    }

    /// Drives the real SDK the way `bench sdk` does, with the mix of `LongSDKJournal` (the
    /// report's scale test): tracks and purchases on a US project, a switch to EU and back every
    /// `switchEvery` calls (with a new email and push token, so each switch's disable waits to
    /// be durable and the gate holds calls), against an in-process transport that answers 200 at
    /// once. The journal is the SDK's own writer, with the SDK's options, handed to it as its
    /// recorder so that its `lastSequence` says when `records` facts are written; nothing is
    /// retained away. Stops at the first settle past `records` (a few hundred more at most).
    static func writeJournal(storage: String, records: Int, switchEvery: Int, receipts: ReceiptRecorder? = nil,
                             log: @Sendable (String) -> Void) async throws -> (records: Int, calls: Int, switches: Int) {
        let transport = InProcessTransport { request in
            receipts?.record(request)
            return .response(status: 200, headers: [:], body: Data(#"{"code":"Success"}"#.utf8))
        }
        var configuration = SDKConfiguration(storageDirectory: storage, transport: transport, modules: [], journalRetainedBytes: nil)
        try FileManager.default.createDirectory(atPath: storage + "/journal", withIntermediateDirectories: true)
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = configuration.journalSegmentBytes
        options.segmentRecords = configuration.journalSegmentRecords
        options.retainedBytes = nil
        options.groupCommit = configuration.groupCommit
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        #if arch(x86_64)
        options.producer = "engagement-sdk/\(configuration.sdkVersion) linux-x86_64"
        #else
        options.producer = "engagement-sdk/\(configuration.sdkVersion) linux-arm64"
        #endif
        let writer = try JournalWriter(directory: storage + "/journal", options: options, snapshot: nil)
        configuration.recorderOverride = writer
        let sdk = try EngagementSDK(configuration: configuration)
        guard let us = Project(apiKey: "bench-us-key", label: "US", config: ProjectConfig(region: .us)),
              let eu = Project(apiKey: "bench-eu-key", label: "EU", config: ProjectConfig(region: .eu)) else {
            throw BenchError("the bench projects are invalid")
        }
        await sdk.outcome.initialize(us)
        sdk.setEmail("bench@example.com", completion: nil)
        sdk.registerToken("bench-token", completion: nil)
        // Every track and purchase must be delivered: a journal of discards is not the workload claimed.
        let tally = OutcomeTally()
        var onUS = true
        var calls = 0
        var switches = 0
        var reported = 0
        while writer.lastSequence < UInt64(records) {
            if calls > 0, calls % switchEvery == 0 {
                await sdk.settle()
                sdk.switchProject(to: onUS ? eu : us) { _ in }
                onUS.toggle()
                switches += 1
                sdk.setEmail("bench-\(calls)@example.com", completion: nil)
                sdk.registerToken("bench-token-\(calls)", completion: nil)
            }
            switch calls % 10 {
            case 9: sdk.trackPurchase(total: 9.5, items: [CommerceItem(id: "sku-\(calls % 7)", name: "coffee", price: 9.5, quantity: 1)],
                                      completion: tally.completion)
            default: sdk.track("screen_view", dataFields: ["screen": "home", "index": .integer(Int64(calls))], completion: tally.completion)
            }
            calls += 1
            if calls % 250 == 0 {
                await sdk.settle()
                let written = Int(writer.lastSequence)
                if written - reported >= 1_000_000 {
                    reported = written
                    log("  \(written) records")
                }
            }
        }
        await sdk.settle()
        _ = await sdk.outcome.flush()
        sdk.shutdown()
        guard tally.allDelivered(calls) else {
            let how = tally.outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            throw BenchError("the journal is not the workload claimed: of \(calls) tracks and purchases, \(how)")
        }
        return (Int(writer.lastSequence), calls, switches)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One child process, run to its end: wall seconds from spawn to reaped, its peak resident
/// memory and how it ended.
///
/// The peak is the child's `ru_maxrss` from `wait4`, but not taken here: glibc's `posix_spawn`
/// shares this process's memory until the exec (vfork), and Linux folds the old memory's peak
/// into the child's `ru_maxrss` at exec, so every child would report at least bench's own peak.
/// GNU time (`/usr/bin/time`, a 1 MiB process) forks the child and reports its `wait4`
/// `ru_maxrss` (`%M`), so the child runs under it when it is installed; without it the figure is
/// this process's `wait4`, and `peakFloorMiB` says what it may include.
enum ChildProcess {
    struct Run {
        var seconds: Double
        var peakMiB: Double
        var status: Int32
        var signal: Int32
    }

    static let gnuTime: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

    /// How peaks are measured, for the report.
    static var peakMethod: String {
        gnuTime != nil ? "ru_maxrss of the child from wait4, via GNU time (/usr/bin/time -f %M, which forks the child from a 1 MiB process)"
            : "ru_maxrss from this process's wait4 (no /usr/bin/time): includes bench's own peak, \(Format.fixed(ProcessStats.peakResidentMiB(), digits: 1)) MiB, as a floor"
    }

    static func run(_ executable: String, _ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null") throws -> Run {
        let resolved = executable.contains("/") ? executable : (Self.which(executable) ?? executable)
        let peakFile = NSTemporaryDirectory() + "bench-replay-peak-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: peakFile) }
        let command = gnuTime.map { [$0, "-f", "%M", "-o", peakFile, resolved] + arguments } ?? [resolved] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let stopwatch = Stopwatch()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot run \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
        }
        let seconds = stopwatch.seconds
        var peakKiB = Double(usage.ru_maxrss)
        if gnuTime != nil {
            // GNU time writes "Command exited with non-zero status N" before %M when it did.
            let text = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
            peakKiB = text.split(separator: "\n").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        }
        return Run(seconds: seconds, peakMiB: peakKiB / 1024, status: (status >> 8) & 0xFF, signal: status & 0x7F)
    }

    /// The first executable of that name on PATH.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Renders the replay benchmark as a table or one JSON object.
enum ReplayReportFormatter {
    static func table(_ report: ReplayBenchmark.Report) -> String {
        var lines: [String] = []
        var about = "journal \(report.journal): \(report.records) records, \(report.segments) segments, "
            + "\(Format.fixed(Double(report.fileBytes) / 1_048_576, digits: 1)) MiB"
        if let calls = report.calls, let switches = report.switches {
            about += "; written by the SDK: \(calls) calls, \(switches) switches"
        }
        if let seconds = report.writeSeconds { about += ", in \(Format.fixed(seconds, digits: 1)) s" }
        lines.append(about)
        lines.append("NDJSON export: \(Format.fixed(Double(report.ndjsonBytes) / 1_048_576, digits: 1)) MiB")
        lines.append("")
        lines.append("records     command                                   median s     max s   peak MiB   vs DuckDB   status")
        for row in report.rows {
            lines.append(String(report.records).padding(toLength: 12, withPad: " ", startingAt: 0)
                         + row.command.padding(toLength: 40, withPad: " ", startingAt: 0)
                         + Format.fixed(row.median, digits: 3).leftPadded(11)
                         + Format.fixed(row.max, digits: 3).leftPadded(10)
                         + Format.fixed(row.peakMiB, digits: 1).leftPadded(11)
                         + (row.ratioToDuckDB.map { Format.fixed($0, digits: 2) + "x" } ?? "").leftPadded(12)
                         + row.statuses.sorted().map(String.init).joined(separator: ",").leftPadded(9))
        }
        if let skipped = report.duckdbSkipped { lines.append("the DuckDB peer was skipped: \(skipped)") }
        if let skipped = report.parquetSkipped { lines.append("the DuckDB Parquet peer was skipped: \(skipped)") }
        if let calls = report.duckdbCalls { lines.append("DuckDB's answer: \(calls) calls") }
        let runs = report.rows.first { !$0.command.hasPrefix("state --at") }?.seconds.count ?? 0
        lines.append("median, max: wall seconds over \(runs) run(s) of each command, one after the other (state --at: one run per moment)")
        lines.append("vs DuckDB: this command's median wall time over DuckDB's answering the same question (below 1 is faster)")
        lines.append("status: the exit statuses seen (0 fine, 1 findings)")
        lines.append("peak: \(ChildProcess.peakMethod)")
        return lines.joined(separator: "\n")
    }

    static func json(_ report: ReplayBenchmark.Report) -> String {
        func text(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let rows = report.rows.map { row in
            "{\"command\":\(text(row.command)),\"runs\":\(row.seconds.count),\"median_s\":\(Format.fixed(row.median, digits: 4)),"
                + "\"max_s\":\(Format.fixed(row.max, digits: 4)),\"peak_mib\":\(Format.fixed(row.peakMiB, digits: 1)),"
                + "\"vs_duckdb\":\(row.ratioToDuckDB.map { Format.fixed($0, digits: 3) } ?? "null"),"
                + "\"statuses\":[\(row.statuses.sorted().map(String.init).joined(separator: ","))]}"
        }
        return "{\"journal\":\(text(report.journal)),\"records\":\(report.records),\"segments\":\(report.segments),"
            + "\"file_bytes\":\(report.fileBytes),\"ndjson_bytes\":\(report.ndjsonBytes),"
            + "\"calls\":\(report.calls.map(String.init) ?? "null"),\"switches\":\(report.switches.map(String.init) ?? "null"),"
            + "\"write_s\":\(report.writeSeconds.map { Format.fixed($0, digits: 2) } ?? "null"),"
            + "\"moments\":[\(report.moments.map(String.init).joined(separator: ","))],"
            + "\"rows\":[\(rows.joined(separator: ","))],\"peak_method\":\(text(ChildProcess.peakMethod)),"
            + "\"duckdb_skipped\":\(report.duckdbSkipped.map(text) ?? "null"),\"duckdb_calls\":\(report.duckdbCalls.map(String.init) ?? "null")}"
    }
}
