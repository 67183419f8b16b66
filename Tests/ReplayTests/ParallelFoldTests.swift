import Foundation
import Journal
@testable import ReplayKit
import SDK
import Testing

/// Whole-journal questions over segments side by side (`--jobs J`) answer byte for byte as the
/// walk in order (`--jobs 1`) does: over a journal of many segments with calls that span their
/// boundaries, one that lost a segment in the middle (a gap), and one that ends in a torn tail.
@Suite("replay: segments folded in parallel", .tags(.endToEnd), .serialized, .timeLimit(.minutes(5)))
struct ParallelFoldTests {
    /// The questions compared, each with `--jobs 1` and with `--jobs J`.
    static let questions: [[String]] = [
        ["audit"], ["audit", "--json"], ["audit", "--project", "EU"], ["audit", "--call", "trackPurchase", "--json"],
        ["check"], ["check", "--json"], ["diagnose"], ["diagnose", "--json"],
        ["recheck"], ["recheck", "--json", "--limit", "1"],
    ]

    /// A journal of the real SDK in segments of about 64 records, under `directory/journal`.
    static func makeJournal(_ directory: String) async throws -> String {
        try await LongSDKJournal.make(directory: directory, calls: 1_200, switchEvery: 300, segmentRecords: 64)
        return directory + "/journal"
    }

    /// Runs every question with `--jobs 1` and `--jobs jobs`; expects the same bytes, status
    /// and standard error (but for the note that segments were walked in order, which only the
    /// commands in `inOrder` may print: the others must have split the journal).
    static func expectSameAnswers(_ journal: String, jobs: Int, _ comment: String, inOrder: Set<String> = []) {
        for question in questions {
            let alone = ReplayHarness.run(question + ["--jobs", "1", journal])
            let split = ReplayHarness.run(question + ["--jobs", String(jobs), journal])
            #expect(!(alone.out.isEmpty && alone.error.isEmpty), "\(comment) \(question)")
            #expect(Self.firstDifference(split.out.split(separator: "\n"), alone.out.split(separator: "\n")) == nil,
                    "\(comment) \(question): the outputs differ")
            #expect(Self.withoutJobsNote(split.error) == alone.error, "\(comment) \(question): \(split.error) against \(alone.error)")
            if !inOrder.contains(question[0]) {
                #expect(Self.withoutJobsNote(split.error) == split.error, "\(comment) \(question): not split: \(split.error)")
            }
            #expect(split.status == alone.status, "\(comment) \(question)")
        }
    }

    /// Standard error without the note saying segments were walked in order (``JobsNote``).
    static func withoutJobsNote(_ error: String) -> String {
        error.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains(": --jobs ") }.joined(separator: "\n")
    }

    /// The first line where `lines` differ from `expected`, both shown (nil when they are the same).
    static func firstDifference<Line: StringProtocol>(_ lines: [Line], _ expected: [Line]) -> String? {
        guard let index = (0..<min(lines.count, expected.count)).first(where: { lines[$0] != expected[$0] })
                ?? (lines.count == expected.count ? nil : min(lines.count, expected.count))
        else { return nil }
        let line = index < lines.count ? String(lines[index]) : "(no line)"
        let wanted = index < expected.count ? String(expected[index]) : "(no line)"
        return "line \(index + 1) of \(lines.count) (expected \(expected.count)): \(line)\n  expected: \(wanted)"
    }

    /// The segments' files, oldest first.
    static func segmentFiles(_ journal: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".lz4") }.sorted()
    }

    @Test("many segments, calls spanning their boundaries: the same bytes with --jobs 1 and 3")
    func manySegments() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        let reader = try JournalReader(directory: journal)
        #expect(reader.segments.count >= 10, "segments: \(reader.segments.count)")
        #expect(SegmentFolds.canSplit(reader))
        // Calls received in one segment and resolved in a later one: the join carries them.
        let bases = reader.segments.map(\.baseSequence)
        let rows = try AuditRows.of(reader).rows
        let spanning = rows.filter { row in
            guard let received = row.received?.sequence, let resolved = row.resolved?.sequence else { return false }
            return bases.contains { received < $0 && $0 <= resolved }
        }
        #expect(spanning.count >= 5, "calls spanning a segment boundary: \(spanning.count)")
        Self.expectSameAnswers(journal, jobs: 3, "jobs 3")
    }

    @Test("the join hands out the rows of one walk in order, auditing no segment again (the snapshots agree)")
    func joinMatchesWalk() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        let reader = try JournalReader(directory: journal)
        let (rows, audit) = try AuditRows.of(reader)
        var joined: [AuditRow] = []
        let join = CallAuditJoin { joined.append($0) }
        _ = try join.audit(reader, jobs: 3)
        join.finish()
        #expect(join.segmentsRedone == 0)
        #expect(Self.firstDifference(joined.map(\.line), rows.map(\.line)) == nil)
        #expect(Self.firstDifference(joined.map { $0.json.serialized() }, rows.map { $0.json.serialized() }) == nil)
        #expect(join.statusCounts == audit.statusCounts)
        #expect(join.deliveries.mapValues { [$0.forCalls, $0.ownRequests] } == audit.deliveries.mapValues { [$0.forCalls, $0.ownRequests] })
    }

    @Test("recheck: mismatches in many segments, the first N kept in order, the same bytes with --jobs 3")
    func recheckMismatches() throws {
        typealias J = CraftedJournal
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try CraftedJournal(directory: path, segmentBytes: 1024)
        /// `input` and the decisions today's `decide` makes for it, at the input's time.
        func decided(_ input: Fact) throws {
            var replica = journal.state
            let produced = replica.decide(input, at: JournalTime(microsecondsSince1970: journal.time.microsecondsSince1970 + 1_000))
            try journal.append(produced[0], after: 1_000)
            for fact in produced.dropFirst() { try journal.append(fact, after: 0) }
        }
        try decided(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: EngineRules())))
        try decided(.callReceived(J.received(1, .initialize(J.us))))
        for number in UInt64(2)..<300 {
            if number % 26 == 0 {
                // A setEmail whose recorded identity is not the one today's decide gives.
                try journal.append(.callReceived(J.received(number, .setEmail("ada\(number)@example.com"))))
                try journal.append(.gateDecided(call: J.call(number), decision: .executed(project: J.us.fingerprint)))
                try journal.append(.identityChanged(email: "someone\(number)@example.com", userID: nil))
                try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
            } else {
                try decided(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
            }
            try journal.rotate()
        }
        try journal.close()
        let reader = try JournalReader(directory: path)
        #expect(reader.segments.count > 5, "segments: \(reader.segments.count)")
        #expect(SegmentFolds.canSplit(reader))
        let split = try #require(Recheck.inSegments(reader, limit: 3, jobs: 3))
        #expect(split.0.mismatchCount == 11)
        #expect(split.0.mismatches.map(\.input.sequence) == split.0.mismatches.map(\.input.sequence).sorted())
        #expect(split.0.mismatches.count == 3)
        for question in [["recheck"], ["recheck", "--limit", "2"], ["recheck", "--json", "--limit", "4"], ["audit", "--json"]] {
            let alone = ReplayHarness.run(question + ["--jobs", "1", path])
            let sideBySide = ReplayHarness.run(question + ["--jobs", "3", path])
            #expect(!alone.out.isEmpty, "\(question)")
            #expect(Self.firstDifference(sideBySide.out.split(separator: "\n"), alone.out.split(separator: "\n")) == nil, "\(question)")
            #expect(sideBySide.status == alone.status && sideBySide.error == alone.error, "\(question)")
        }
    }

    @Test("a segment lost in the middle (a gap): the same bytes; calls open across it are carried")
    func gap() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        let files = try Self.segmentFiles(journal)
        let lost = files[files.count / 2]
        try FileManager.default.removeItem(atPath: journal + "/" + lost)
        try? FileManager.default.removeItem(atPath: journal + "/" + lost.replacingOccurrences(of: ".lz4", with: ".idx"))
        let reader = try JournalReader(directory: journal)
        #expect(reader.segments.count == files.count - 1)
        #expect(SegmentFolds.canSplit(reader))
        // recheck gives up its split when a segment's stream stops (here, at the missing
        // sequences), and walks in order: it says so.
        Self.expectSameAnswers(journal, jobs: 2, "gap, jobs 2", inOrder: ["recheck"])
    }

    @Test("a torn tail and a corrupted middle segment: the same bytes, the same messages")
    func damage() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        let files = try Self.segmentFiles(journal)
        let last = URL(fileURLWithPath: journal + "/" + files[files.count - 1])
        let tail = try Data(contentsOf: last)
        try tail.prefix(tail.count - 9).write(to: last)
        Self.expectSameAnswers(journal, jobs: 2, "torn tail")
        // A byte flipped in a middle segment: the walk in order stops there with an error; so
        // must the segments side by side, after the same output.
        let middle = URL(fileURLWithPath: journal + "/" + files[files.count / 3])
        var bytes = try Data(contentsOf: middle)
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: middle)
        Self.expectSameAnswers(journal, jobs: 3, "corrupted middle segment", inOrder: ["recheck"])
    }
}
