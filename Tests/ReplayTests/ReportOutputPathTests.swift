import Foundation
import Testing

/// `report -o PATH` replaces a regular file only: a directory (and what it holds), a FIFO or
/// device, and a path whose folder is missing are refused before the journal is read, and a
/// file is replaced whole (written beside it, then renamed), never left in part.
@Suite("report -o: what it may replace", .timeLimit(.minutes(1)))
struct ReportOutputPathTests {
    private static func demo() throws -> String { try GoldenJournals.copy("demo") }

    @Test("a directory is refused, and kept with what it holds")
    func directory() throws {
        let journal = try Self.demo()
        defer { GoldenJournals.remove(journal) }
        let folder = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/keep.txt", contents: Data("mine".utf8)))
        for option in ["-o", "--output"] {
            let run = ReplayHarness.run(["report", option, folder, journal])
            #expect(run.status == 2)
            #expect(run.error.contains("\(option) \(folder) is a directory: give a file's path, e.g. \(folder)/report.html"), "\(run.error)")
        }
        #expect(try String(contentsOfFile: folder + "/keep.txt", encoding: .utf8) == "mine")
    }

    @Test("a FIFO is refused and left as it is; a missing folder is named")
    func notARegularFile() throws {
        let journal = try Self.demo()
        defer { GoldenJournals.remove(journal) }
        let folder = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = ReplayHarness.run(["report", "-o", fifo, journal])
        #expect(run.status == 2)
        #expect(run.error.contains("-o \(fifo) is not a regular file"), "\(run.error)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "the FIFO is left as it was")
        let missing = ReplayHarness.run(["report", "-o", folder + "/no/such/report.html", journal])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no directory \(folder)/no/such to write it in"), "\(missing.error)")
    }

    @Test("a one-character path in the working directory (NSString's deletingLastPathComponent traps on one)")
    func oneCharacterPath() throws {
        let run = ReplayHarness.run(["report", "-o", "1", "--not-an-option"])
        #expect(run.status == 2)
        #expect(run.error.contains("replay report: missing journal directory"), "the path is checked, then the arguments: \(run.error)")
    }

    @Test("a regular file, and the file a link names, are replaced whole, owner-only, nothing left beside them")
    func replacesAFile() throws {
        let journal = try Self.demo()
        defer { GoldenJournals.remove(journal) }
        let folder = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/report.html"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("old".utf8)))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.html", withDestinationPath: file)
        for path in [file, folder + "/link.html"] {
            let run = ReplayHarness.run(["report", "-o", path, journal])
            #expect(run.status == 0, "\(run.error)")
            let page = try String(contentsOfFile: file, encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.html") == file)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link.html", "report.html"])
    }
}
