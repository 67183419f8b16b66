import Foundation
import Testing
@testable import replay

/// `check`, `audit`, `diagnose`, `info` and `verify` over several journals in one process:
/// each journal's answer is exactly what the command prints for it alone (text under a
/// heading; JSON lines tagged with the journal), a total follows, an unreadable journal is
/// named and skipped, and `--jobs` changes nothing but the speed.
@Suite("many journals per command", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct ManyJournalsTests {
    /// A folder holding two copies of the demo journal and one directory that is not a journal.
    private static func fleet() async throws -> (folder: String, journals: [String], broken: String) {
        let demo = await DemoFixture.shared.journal().journal
        let folder = ReplayHarness.temporaryDirectory()
        let journals = [folder + "/a", folder + "/c"]
        for journal in journals { try FileManager.default.copyItem(atPath: demo, toPath: journal) }
        let broken = folder + "/b"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("not a segment".utf8).write(to: URL(fileURLWithPath: broken + "/notes.txt"))
        return (folder, journals, broken)
    }

    static let commands = ["check", "audit", "diagnose", "info", "verify"]

    @Test("text: each journal's section is its single answer; the broken one is skipped and named", arguments: commands)
    func text(_ command: String) async throws {
        let (folder, journals, broken) = try await Self.fleet()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let many = ReplayHarness.run([command, folder])
        #expect(many.status == 1, "\(many.error)")
        #expect(many.error.contains("replay \(command): \(broken)"), "\(many.error)")
        #expect(many.error.contains("skipped, the others answered"))
        let single = journals.map { ReplayHarness.run([command, $0]) }
        #expect(single.allSatisfy { $0.status == 0 })
        // `info` names its journal in its table; the rest is the same for both copies.
        for (journal, run) in zip(journals, single) {
            #expect(many.out.contains("== \(journal) ==\n" + run.out), "\(command) \(journal)")
        }
        #expect(many.out.contains("== \(broken) ==\nskipped: "))
        #expect(many.out.contains("== total: 3 journal(s), 2 answered, 1 skipped (\(broken)) =="))
        // Sections in the folder's order.
        let headings = many.out.split(separator: "\n").filter { $0.hasPrefix("== ") }
        #expect(headings.count == 4)
        #expect(headings.first == "== \(journals[0]) ==")
    }

    @Test("JSON: every line is tagged with its journal; without the tag it is the single answer", arguments: commands)
    func json(_ command: String) async throws {
        let (folder, journals, broken) = try await Self.fleet()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let many = ReplayHarness.run([command, "--json", journals[0], broken, journals[1]])
        #expect(many.status == 1)
        let lines = many.out.split(separator: "\n").map(String.init)
        let single = ReplayHarness.run([command, "--json", journals[0]]).out
        let id = try #require(JSONProbe(parsing: ReplayHarness.run(["info", "--json", journals[0]]).out)?["id"].string)
        for journal in journals {
            let tag = "{\"journal\":\"\(journal)\",\"journal_id\":\"\(id)\""
            let own = lines.filter { $0.hasPrefix(tag) }.map { "{" + $0.dropFirst(tag.count).drop { $0 == "," } }
            switch command {
            case "diagnose":
                // One line per switch report: the single answer's array, element by element.
                #expect("[" + own.joined(separator: ",") + "]\n" == single)
            case "info":
                // The tag names the journal: the single answer's "journal" member is left out.
                #expect(own.joined(separator: "\n") + "\n" == single.replacingOccurrences(of: "{\"journal\":\"\(journals[0])\",", with: "{"))
            default:
                #expect(own.joined(separator: "\n") + "\n" == single)
            }
        }
        #expect(lines.contains { $0.hasPrefix("{\"journal\":\"\(broken)\",\"journal_id\":null,\"skipped\":") })
        let last = try #require(lines.last)
        let total = try #require(JSONProbe(parsing: last))["total"]
        #expect(total["journals"].int == 3)
        #expect(total["answered"].int == 2)
        #expect(total["skipped"].array.compactMap { $0.string } == [broken])
    }

    @Test("the total adds up the journals' counts")
    func totals() async throws {
        let (folder, journals, _) = try await Self.fleet()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let one = try #require(JSONProbe(parsing: ReplayHarness.run(["info", "--json", journals[0]]).out))
        let many = try #require(JSONProbe.lines(ReplayHarness.run(["info", "--json", folder]).out).last)["total"]
        #expect(many["records"].int == 2 * (one["records"].int ?? -1))
        let audit = JSONProbe.lines(ReplayHarness.run(["audit", "--json", journals[0]]).out)
        let calls = try #require(audit.last?["summary"]["calls"].int)
        let auditTotal = try #require(JSONProbe.lines(ReplayHarness.run(["audit", "--json", folder]).out).last)["total"]
        #expect(auditTotal["calls"].int == 2 * calls)
        let text = ReplayHarness.run(["check", journals[0], journals[1]]).out
        #expect(text.contains("== total: 2 journal(s), 2 answered ==\n"))
        #expect(text.contains("  clean_journals"))
    }

    @Test("--jobs answers in the journals' order with the same bytes", arguments: commands)
    func jobs(_ command: String) async throws {
        let (folder, _, _) = try await Self.fleet()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for json in [false, true] {
            let arguments = [command] + (json ? ["--json"] : []) + [folder]
            let serial = ReplayHarness.run(arguments)
            let parallel = ReplayHarness.run(arguments + ["--jobs", "3"])
            #expect(serial.out == parallel.out)
            #expect(serial.error == parallel.error)
            #expect(serial.status == parallel.status)
        }
    }
}
