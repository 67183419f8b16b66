import Foundation
import Journal
@testable import ReplayKit
import SDK
import Testing

/// `replay export --format ndjson` over segments side by side (`--jobs J`) writes the same rows,
/// byte for byte, as the walk in order (`--jobs 1`): over a journal of many segments whose
/// switches and calls span their boundaries, one that lost a segment (a gap), one with a
/// segment that does not begin with a readable snapshot, one that cannot be split, and a
/// corrupted one.
@Suite("replay export: segments written side by side", .tags(.endToEnd), .serialized, .timeLimit(.minutes(5)))
struct ParallelExportTests {
    /// A run of `export --format ndjson` and the rows it wrote (empty when it wrote no file);
    /// what it printed says `OUT` for the file's path.
    struct Export {
        var run: ReplayRun
        var rows: String
    }

    /// Exports `journal` as NDJSON with `--jobs jobs` into a fresh file under `scratch`.
    static func export(_ journal: String, jobs: Int, scratch: String) throws -> Export {
        let output = scratch + "/jobs-\(jobs)-\(UUID().uuidString).ndjson"
        let run = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "--jobs", String(jobs), "-o", output, journal])
        let rows = FileManager.default.fileExists(atPath: output) ? try String(contentsOfFile: output, encoding: .utf8) : ""
        let printed = ReplayRun(status: run.status, out: run.out.replacingOccurrences(of: output, with: "OUT"),
                                error: run.error.replacingOccurrences(of: output, with: "OUT"))
        return Export(run: printed, rows: rows)
    }

    /// `rows` with each redaction token made the same: a command run makes a key of its own, so
    /// two runs' tokens differ; ``sameBytesWithAFixedKey()`` compares the tokens too.
    static func withoutTokens(_ rows: String) -> String {
        rows.replacingOccurrences(of: "(email|user|token|data|body|text):[0-9a-f]{12}", with: "$1:TOKEN", options: .regularExpression)
    }

    /// Expects `--jobs 1` and each of `jobs` to write the same rows, print the same and end
    /// alike; returns the rows of `--jobs 1`. Unless `inOrderNote` is given, the runs with more
    /// jobs must have split the journal (no note on standard error); with it, each must say so.
    @discardableResult
    static func expectSameRows(_ journal: String, jobs: [Int] = [2, 3, 4], _ comment: Comment, inOrderNote: String? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let scratch = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let alone = try export(journal, jobs: 1, scratch: scratch)
        let expected = withoutTokens(alone.rows)
        #expect(!expected.isEmpty, "\(comment): no rows", sourceLocation: sourceLocation)
        for count in jobs {
            let split = try export(journal, jobs: count, scratch: scratch)
            let difference = ParallelFoldTests.firstDifference(withoutTokens(split.rows).split(separator: "\n", omittingEmptySubsequences: false),
                                                               expected.split(separator: "\n", omittingEmptySubsequences: false))
            #expect(difference == nil, "\(comment), --jobs \(count): \(difference ?? "")", sourceLocation: sourceLocation)
            #expect(split.run.out == alone.run.out, "\(comment), --jobs \(count)", sourceLocation: sourceLocation)
            #expect(split.run.status == alone.run.status, "\(comment), --jobs \(count)", sourceLocation: sourceLocation)
            let note = inOrderNote.map { "replay export: --jobs \(count): \($0)\n" } ?? ""
            #expect(split.run.error == note + alone.run.error, "\(comment), --jobs \(count): \(split.run.error)", sourceLocation: sourceLocation)
        }
        return alone.rows
    }

    /// The rows of `rows` as JSON objects.
    static func objects(_ rows: String) throws -> [[String: Any]] {
        try rows.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("many segments, switches and calls across their boundaries: the same rows with --jobs 1 and 2, 3, 4")
    func manySegments() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await ParallelFoldTests.makeJournal(directory)
        let reader = try JournalReader(directory: journal)
        #expect(reader.segments.count >= 10, "segments: \(reader.segments.count)")
        #expect(SegmentFolds.canSplit(reader))
        let rows = try Self.expectSameRows(journal, "many segments")
        // Switches that start in one segment and land in a later one.
        let bases = reader.segments.map(\.baseSequence)
        var started: [Int: Int] = [:]
        var spanning = 0
        var labelledElsewhere = 0
        for row in try Self.objects(rows) {
            let sequence = try #require(row["seq"] as? Int)
            if row["kind"] as? String == "switchStarted", let id = row["switch_id"] as? Int { started[id] = sequence }
            if row["kind"] as? String == "switchLanded", let id = row["switch_id"] as? Int, let start = started[id],
               bases.contains(where: { start < Int($0) && Int($0) <= sequence }) { spanning += 1 }
            // A row about a project other than the live one, labelled: its label may come from a segment before.
            if let project = row["row_project"] as? String, project != row["live_project"] as? String,
               row["row_project_label"] is String { labelledElsewhere += 1 }
        }
        #expect(spanning >= 1, "switches spanning a segment boundary: \(spanning)")
        #expect(labelledElsewhere >= 1, "rows labelling a project not live: \(labelledElsewhere)")
    }

    @Test("the same bytes, tokens and all, under one key: the rows of the walk in order and of the segments side by side")
    func sameBytesWithAFixedKey() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await ParallelFoldTests.makeJournal(directory)
        let reader = try JournalReader(directory: journal)
        let export = JournalExport(paths: [journal], format: .ndjson, output: "", singleFile: false, json: false)
        let console = Console(out: { _ in }, error: { _ in })
        func rows(jobs: Int) throws -> (Data, SegmentFolds.Walked, JournalExport.ExportSummary) {
            let path = directory + "/fixed-\(jobs).ndjson"
            let file = try NDJSONFile(creating: path)
            let redactor = Redactor(tokens: TokenMemo(KeyedHash(key: Array(repeating: 7, count: 32))))
            let (summary, walked) = try export.exportNDJSON(reader, redactor, into: file, console: console, jobs: jobs)
            try file.close()
            return (try Data(contentsOf: URL(fileURLWithPath: path)), walked, summary)
        }
        let (inOrder, walkedInOrder, summaryInOrder) = try rows(jobs: 1)
        #expect(walkedInOrder.walkedInOrder)
        #expect(String(decoding: inOrder, as: UTF8.self).contains("email:"), "tokens to compare")
        for jobs in [2, 3] {
            let (split, walked, summary) = try rows(jobs: jobs)
            #expect(split == inOrder, "--jobs \(jobs): \(split.count) bytes against \(inOrder.count)")
            #expect(!walked.walkedInOrder && walked.segmentsAlone == reader.segments.count && walked.segmentsInOrder == 0)
            #expect(summary.records == summaryInOrder.records && summary.emptied == summaryInOrder.emptied)
        }
    }

    @Test("a segment lost in the middle (a gap): the same rows up to it, the same error, the journal still split")
    func gap() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await ParallelFoldTests.makeJournal(directory)
        let files = try ParallelFoldTests.segmentFiles(journal)
        let lost = files[files.count / 2]
        try FileManager.default.removeItem(atPath: journal + "/" + lost)
        try? FileManager.default.removeItem(atPath: journal + "/" + lost.replacingOccurrences(of: ".lz4", with: ".idx"))
        #expect(SegmentFolds.canSplit(try JournalReader(directory: journal)))
        // A strict walk stops at the missing sequences, with an error: the rows before them are written.
        let rows = try Self.expectSameRows(journal, jobs: [2, 3], "gap")
        let lastRow = try #require(try Self.objects(rows).last?["seq"] as? Int)
        let missing = try #require(UInt64(lost.dropFirst("segment-".count).prefix(20)))
        #expect(lastRow == Int(missing) - 1, "rows up to the gap: the last \(lastRow), the gap at \(missing)")
    }

    @Test("a segment that does not begin with a readable snapshot is written in order at the join; the others alone")
    func segmentWithoutSnapshot() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeJournalWithUnreadableSnapshot(path)
        let reader = try JournalReader(directory: path)
        #expect(reader.segments.count >= 6, "segments: \(reader.segments.count)")
        #expect(SegmentFolds.canSplit(reader))
        let rows = try Self.expectSameRows(path, jobs: [2, 3], "unreadable snapshot",
                                           inOrderNote: "1 of \(reader.segments.count) segment(s) walked in order (no readable snapshot at their start)")
        #expect(rows.contains("\"unreadable\":"), "the unreadable snapshot keeps its row")
    }

    @Test("a journal that cannot be split (one segment; a header unreadable) is walked in order, and --jobs says so")
    func cannotSplit() async throws {
        let one = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: one) }
        let journal = try CraftedJournal(directory: one)
        try journal.appendLaunchOnUS()
        try journal.close()
        try Self.expectSameRows(one, jobs: [2], "one segment", inOrderNote: "walked in order (the journal has one segment)")

        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = try await ParallelFoldTests.makeJournal(directory)
        let files = try ParallelFoldTests.segmentFiles(long)
        let middle = URL(fileURLWithPath: long + "/" + files[files.count / 2])
        var bytes = try Data(contentsOf: middle)
        for offset in 8..<24 { bytes[offset] ^= 0xA5 }
        try bytes.write(to: middle)
        let reader = try JournalReader(directory: long, headers: .onDemand)
        #expect(!SegmentFolds.canSplit(reader))
        try Self.expectSameRows(long, jobs: [2], "header unreadable",
                                inOrderNote: "walked in order (a segment header is unreadable or out of order)")
    }

    @Test("a torn tail and a corrupted middle segment: the same rows and messages; stopped, the rows before the damage")
    func damage() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await ParallelFoldTests.makeJournal(directory)
        let files = try ParallelFoldTests.segmentFiles(journal)
        let last = URL(fileURLWithPath: journal + "/" + files[files.count - 1])
        let tail = try Data(contentsOf: last)
        try tail.prefix(tail.count - 9).write(to: last)
        try Self.expectSameRows(journal, jobs: [2], "torn tail")

        let middle = URL(fileURLWithPath: journal + "/" + files[files.count / 3])
        var bytes = try Data(contentsOf: middle)
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: middle)
        let scratch = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let alone = try Self.export(journal, jobs: 1, scratch: scratch)
        let split = try Self.export(journal, jobs: 3, scratch: scratch)
        #expect(alone.run.status != 0 && !alone.run.error.isEmpty)
        #expect(split.run.status == alone.run.status && split.run.out == alone.run.out)
        #expect(split.run.error == alone.run.error, "\(split.run.error) against \(alone.run.error)")
        // A stopped export keeps the rows before the damage: the same.
        #expect(!alone.rows.isEmpty)
        #expect(Self.withoutTokens(split.rows) == Self.withoutTokens(alone.rows))
    }

    /// Every record of the journal at `path` and its segments' base sequences.
    static func records(_ path: String) throws -> (records: [JournalRecord], bases: [UInt64]) {
        let reader = try JournalReader(directory: path)
        let cursor = try reader.records()
        var records: [JournalRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return (records, reader.segments.map(\.baseSequence))
    }

    /// Copies `journal` as a journal with `--jobs 1` and `--jobs 3` under one key (through
    /// ``JournalExport``) and expects the same records, numbered and laid out alike.
    static func expectSameCopies(_ journal: String, _ comment: Comment, alone: Int, inOrder: Int,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scratch = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let reader = try JournalReader(directory: journal)
        let export = JournalExport(paths: [journal], format: .journal, output: "", singleFile: false, json: false)
        let console = Console(out: { _ in }, error: { _ in })
        var copies: [(records: [JournalRecord], bases: [UInt64], summary: JournalExport.ExportSummary)] = []
        for jobs in [1, 3] {
            let redactor = Redactor(tokens: TokenMemo(KeyedHash(key: Array(repeating: 9, count: 32))))
            let (summary, walked) = try export.exportJournal(reader, redactor, to: scratch + "/copy-\(jobs)", console: console, jobs: jobs)
            if jobs > 1 {
                #expect(walked.segmentsAlone == alone && walked.segmentsInOrder == inOrder, "\(comment)", sourceLocation: sourceLocation)
            }
            let (records, bases) = try Self.records(scratch + "/copy-\(jobs)")
            copies.append((records, bases, summary))
        }
        #expect(copies[0].records.count > 10, "\(comment)", sourceLocation: sourceLocation)
        #expect(copies[1].records == copies[0].records, "\(comment): \(copies[1].records.count) records against \(copies[0].records.count)",
                sourceLocation: sourceLocation)
        #expect(copies[1].bases == copies[0].bases, "\(comment): segments", sourceLocation: sourceLocation)
        let (a, b) = (copies[0].summary, copies[1].summary)
        #expect([b.records, b.emptied, b.droppedSnapshots, b.summarized, b.leftOut] == [a.records, a.emptied, a.droppedSnapshots, a.summarized, a.leftOut]
                && b.sequenceOffset == a.sequenceOffset, "\(comment)", sourceLocation: sourceLocation)
    }

    @Test("a journal copy: the same records, numbered and laid out alike, with --jobs 1 and 3 (under one key), and through the command")
    func journalCopies() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await ParallelFoldTests.makeJournal(directory)
        let segments = try JournalReader(directory: journal).segments.count
        try Self.expectSameCopies(journal, "many segments", alone: segments, inOrder: 0)

        // Through the command: the same summary and, read back, the same rows.
        let scratch = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var printed: [String] = []
        var rows: [String] = []
        for jobs in [1, 3] {
            let copy = scratch + "/copy-\(jobs)"
            let run = ReplayHarness.run(["export", "--redact", "--jobs", String(jobs), "-o", copy, journal])
            #expect(run.status == 0, "\(run.error)")
            printed.append(run.out.replacingOccurrences(of: copy, with: "OUT") + run.error)
            rows.append(Self.withoutTokens(ReplayHarness.run(["cat", "--json", copy]).out))
        }
        #expect(printed[1] == printed[0])
        #expect(!rows[0].isEmpty && rows[1] == rows[0])
        // The copy checks as clean as the original: its fold comes to its redacted snapshots,
        // bulk events joined on the gate's decision included (their bodies carried, redacted).
        #expect(ReplayHarness.run(["check", journal]).out.hasSuffix("no violation\n"))
        #expect(rows[0].contains("\"name\":\"eventBatched\""), "the journal batches events")
        for jobs in [1, 3] {
            let check = ReplayHarness.run(["check", scratch + "/copy-\(jobs)"])
            #expect(check.out.hasSuffix("no violation\n"), "--jobs \(jobs): \(check.out.suffix(600))")
        }
        // recheck of a copy decides over redacted calls: it says so, and that the original is
        // the one to recheck; of the original it has nothing to say.
        let recheckCopy = ReplayHarness.run(["recheck", scratch + "/copy-1"])
        #expect(recheckCopy.status == 1)
        #expect(recheckCopy.error.contains("/copy-1 is a redacted copy (replay export (redacted) of engagement-sdk/"), "\(recheckCopy.error)")
        #expect(recheckCopy.error.contains("recheck the original journal"))
        let recheckOriginal = ReplayHarness.run(["recheck", journal])
        #expect(recheckOriginal.status == 0 && !recheckOriginal.error.contains("redacted copy"))
    }

    @Test("a journal copy of a journal with a segment without a readable snapshot: the same records")
    func journalCopyWithoutSnapshot() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeJournalWithUnreadableSnapshot(path)
        let segments = try JournalReader(directory: path).segments.count
        try Self.expectSameCopies(path, "unreadable snapshot", alone: segments - 1, inOrder: 1)
    }

    /// A crafted journal of several segments, one of which begins with a snapshot no build reads.
    static func writeJournalWithUnreadableSnapshot(_ path: String) throws {
        typealias J = CraftedJournal
        let journal = try CraftedJournal(directory: path, segmentBytes: 1024)
        try journal.appendLaunchOnUS()
        // The first segment begun after call 100 begins with a snapshot no build can read.
        var garbled = false
        for number in UInt64(2)..<200 {
            try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
            try journal.append(.gateDecided(call: J.call(number), decision: .executed(project: J.us.fingerprint)))
            try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            if number >= 100 && !garbled {
                garbled = try journal.rotate(snapshotPayload: [0xFF, 0xFE, 0xFD])
            } else {
                try journal.rotate()
            }
        }
        #expect(garbled)
        try journal.close()
    }
}
