import Foundation
import Locking
import SDK
import Testing
@testable import ReplayKit

/// Folder commands with `--jobs`: `check`, `audit`, `diagnose` and `export` over a folder of
/// journals print the same bytes, in the journals' order, with one thread or two, and name a
/// bad journal by its path while answering the others; ``InOrderWork`` hands results back in
/// order and holds at most its window of them.
@Suite("folders, journals side by side", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct FolderJobsTests {
    /// More journals than two threads' window (``InOrderWork/windowPerJob`` each), one of them
    /// not a journal, in the middle of the folder's order.
    static let names = (0..<11).map { String(format: "j%02d", $0) }
    static let broken = "j05"

    private static func folder() async throws -> String {
        let demo = await DemoFixture.shared.journal().journal
        let folder = ReplayHarness.temporaryDirectory()
        for name in names where name != broken {
            try FileManager.default.copyItem(atPath: demo, toPath: folder + "/" + name)
        }
        try FileManager.default.createDirectory(atPath: folder + "/" + broken, withIntermediateDirectories: true)
        try Data("not a segment".utf8).write(to: URL(fileURLWithPath: folder + "/" + broken + "/notes.txt"))
        return folder
    }

    @Test("check, audit and diagnose: --jobs 1 and --jobs 2 print the same bytes; the bad journal is named, the others answered",
          arguments: ["check", "audit", "diagnose"])
    func commands(_ command: String) async throws {
        let folder = try await Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for json in [false, true] {
            let arguments = [command] + (json ? ["--json"] : []) + [folder]
            let one = ReplayHarness.run(arguments + ["--jobs", "1"])
            let two = ReplayHarness.run(arguments + ["--jobs", "2"])
            #expect(one.out == two.out, "\(command) json \(json)")
            #expect(one.error == two.error)
            #expect(one.status == 1 && two.status == 1)
            #expect(two.error.contains("replay \(command): \(folder)/\(Self.broken)"), "\(two.error)")
            if json {
                let journals = JSONProbe.lines(two.out).compactMap { $0["journal"].string }
                #expect(journals == journals.sorted(), "lines in the folder's order")
                let total = try #require(JSONProbe.lines(two.out).last)["total"]
                #expect(total["answered"].int == Self.names.count - 1)
                #expect(total["skipped"].array.compactMap { $0.string } == [folder + "/" + Self.broken])
            } else {
                let headings = two.out.split(separator: "\n").filter { $0.hasPrefix("== ") && !$0.hasPrefix("== total") }
                #expect(headings.map(String.init) == Self.names.map { "== \(folder)/\($0) ==" })
            }
        }
    }

    /// `replay export` over the folder with `jobs` threads and a fixed key: what it printed and
    /// every file it wrote, by name.
    private static func exported(_ folder: String, jobs: Int, singleFile: Bool) throws -> (out: String, error: String, status: ReplayKit.ExitStatus,
                                                                                       files: [String: Data]) {
        let root = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let output = root + (singleFile ? "/all.ndjson" : "/out")
        var out = "", error = ""
        let console = Console(out: { out += $0 }, error: { error += $0 })
        let command = JournalExport(paths: [folder], format: .ndjson, output: output, singleFile: singleFile, json: false, jobs: jobs)
        let status = try FleetExport(command: command, key: KeyedHash(key: Array("folder jobs, a test key".utf8))).run(console: console)
        var files: [String: Data] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: singleFile ? root : output)
        for name in names { files[name] = try Data(contentsOf: URL(fileURLWithPath: (singleFile ? root : output) + "/" + name)) }
        return (out.replacingOccurrences(of: output, with: "OUT"), error, status, files)
    }

    @Test("export: --jobs 1 and --jobs 2 write the same files and print the same; the bad journal is named, the others exported",
          arguments: [false, true])
    func export(singleFile: Bool) async throws {
        let folder = try await Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let one = try Self.exported(folder, jobs: 1, singleFile: singleFile)
        let two = try Self.exported(folder, jobs: 2, singleFile: singleFile)
        #expect(one.status == .findings && two.status == .findings)
        #expect(one.out == two.out)
        #expect(one.error == two.error)
        #expect(two.error.contains("replay export: \(folder)/\(Self.broken)"), "\(two.error)")
        #expect(one.files.keys.sorted() == two.files.keys.sorted())
        for (name, bytes) in one.files { #expect(two.files[name] == bytes, "\(name) differs") }
        if singleFile {
            // No part file is left; the rows come journal after journal, in the folder's order.
            #expect(two.files.keys.sorted() == ["all.ndjson"])
            let rows = String(decoding: try #require(two.files["all.ndjson"]), as: UTF8.self).split(separator: "\n")
            let perJournal = rows.count / (Self.names.count - 1)
            #expect(rows.count == perJournal * (Self.names.count - 1))
            let alone = try Self.exported(folder + "/j00", jobs: 1, singleFile: true).files["all.ndjson"]
            #expect(Data(rows.prefix(perJournal).joined(separator: "\n").utf8) + Data("\n".utf8) == alone)
        } else {
            #expect(two.files.keys.sorted() == Self.names.filter { $0 != Self.broken }.map { $0 + ".ndjson" })
        }
    }

    @Test("InOrderWork: results in order whatever the jobs; never more than the window taken ahead of what was handed back",
          arguments: [1, 2, 4])
    func inOrder(jobs: Int) {
        let window = 3
        let progress = Locked((delivered: 0, taken: 0, mostAhead: 0))
        var order: [Int] = []
        InOrderWork.run(count: 100, jobs: jobs, window: window, work: { index in
            progress.withLock { $0.taken += 1; $0.mostAhead = max($0.mostAhead, index - $0.delivered) }
            progress.notifyWaiters()
            // The first item waits until the others could have run ahead of it.
            if index == 0 && jobs > 1 { progress.withLock(waitingUntil: { $0.taken >= window }) { _ in } }
            return index * index
        }) { index, square in
            #expect(square == index * index)
            order.append(index)
            progress.withLock { $0.delivered = index + 1 }
        }
        #expect(order == Array(0..<100))
        // An item is taken once the one `window` before it was taken out to be handed back,
        // which may be just before `deliver` hears of it: at most `window` ahead of what it heard.
        #expect(progress.withLock { $0.mostAhead } <= max(window, jobs))
    }
}
