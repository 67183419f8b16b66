import Foundation
import Journal
import Testing
@testable import ReplayKit
import replay

/// `-` reads a journal's segment files concatenated on standard input.
@Suite("journals on standard input", .timeLimit(.minutes(3)))
struct StandardInputTests {
    static func concatenatedSegments(of directory: String) throws -> [UInt8] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".lz4") }.sorted()
        return try names.flatMap { [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    }

    /// What `replay ARGUMENTS` prints and its exit status, its standard input holding `input`.
    static func run(_ arguments: [String], input: [UInt8] = []) -> (status: Int32, out: String) {
        var out = ""
        let status = ReplayCommandLine.run(arguments, console: Console(out: { out += $0 }, error: { _ in }, inputBytes: { input }))
        return (status, out)
    }

    static func records(_ reader: JournalReader) throws -> [JournalRecord] {
        let cursor = try reader.records()
        var records: [JournalRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return records
    }

    @Test("concatenated segments split back into the same segments and records")
    func splitsBack() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let directory = try JournalReader(directory: path)
        #expect(directory.segments.count > 2)
        let stream = try JournalSource.reader(forStream: try Self.concatenatedSegments(of: path))
        #expect(stream.segments.count == directory.segments.count)
        #expect(try Self.records(stream) == Self.records(directory))
        #expect(stream.verify().isClean)
    }

    @Test("a stream that is empty or does not begin with a segment header is refused, naming the source")
    func refusesWhatIsNotAJournal() throws {
        for bytes in [[], Array("{\"seq\":1}\n".utf8), [UInt8](repeating: 0, count: 4096)] {
            #expect {
                _ = try JournalSource.reader(forStream: bytes)
            } throws: { error in
                "\(error)".hasPrefix("standard input: not a journal segment")
            }
        }
    }

    @Test("a stream holding one segment twice, or a segment of a newer format, is refused by name")
    func refusesDuplicatesAndNewerFormats() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let bytes = try Self.concatenatedSegments(of: path)
        #expect {
            _ = try JournalSource.reader(forStream: bytes + bytes)
        } throws: { error in
            "\(error)".contains("two segments start at sequence 1")
        }

        var newer = bytes
        // Major version 2 at offset 12, then the header's checksum over its content again.
        newer[12] = 2
        newer[14] = 0   // minor version 0: "format 2.0"
        let contentSize = Int(newer[4]) | Int(newer[5]) << 8 | Int(newer[6]) << 16 | Int(newer[7]) << 24
        let checksum = XXHash32.hash(Array(newer[8..<(8 + contentSize - 4)]))
        for index in 0..<4 { newer[8 + contentSize - 4 + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index)) }
        #expect {
            _ = try JournalSource.reader(forStream: newer)
        } throws: { error in
            "\(error)".contains("standard input") && "\(error)".contains("format 2.0")
        }
    }

    @Test("damage inside the stream is found where it is, as in a directory")
    func damageIsLocated() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        var bytes = try Self.concatenatedSegments(of: path)
        bytes[bytes.count / 2] ^= 0x5A
        let report = try JournalSource.reader(forStream: bytes).verify()
        #expect(!report.isClean)
    }

    @Test("a stream that ends in a segment header cut short reads as the directory does: a torn tail after every record")
    func cutHeaderIsATornTail() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".lz4") }.sorted()
        let last = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/" + names.last!)))
        let before = try names.dropLast().flatMap { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + $0))) }
        let headerLength = 8 + (Int(last[4]) | Int(last[5]) << 8)
        for cut in [8, 20, 39, 40, 64, headerLength - 1] {
            // The directory the stream stands for: its last segment cut as the stream is.
            try Data(last.prefix(cut)).write(to: URL(fileURLWithPath: path + "/" + names.last!))
            let directory = try JournalReader(directory: path)
            let stream = try JournalSource.reader(forStream: before + last.prefix(cut))
            #expect(stream.segments.count == names.count, "cut at \(cut)")
            #expect(try Self.records(stream) == Self.records(directory), "cut at \(cut)")
            let streamed = stream.verify(), expected = directory.verify()
            #expect(streamed.tornTail?.sequence == expected.tornTail?.sequence && expected.tornTail != nil, "cut at \(cut)")
            #expect(streamed.tornTail?.reason == expected.tornTail?.reason, "cut at \(cut)")
            #expect(streamed.corruption.isEmpty, "cut at \(cut)")
        }
        // A stream of nothing but a cut header: no record, its tail torn.
        let alone = try JournalSource.reader(forStream: Array(last.prefix(64))).verify()
        #expect(alone.records == 0 && alone.tornTail != nil)
    }

    @Test("every command given `-` reads the console's standard input")
    func commandsReadTheConsole() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let bytes = try Self.concatenatedSegments(of: path)
        for arguments in [["verify"], ["cat", "--from", "290"], ["info"]] {
            let (status, fromStream) = Self.run(arguments + ["-"], input: bytes)
            let (reference, fromDirectory) = Self.run(arguments + [path])
            #expect(status == reference)
            #expect(fromStream.replacingOccurrences(of: "/standard-input/", with: "")
                    == fromDirectory.replacingOccurrences(of: path + "/", with: "").replacingOccurrences(of: path, with: "-"),
                    "\(arguments)")
        }
        var error = ""
        let empty = ReplayCommandLine.run(["verify", "-"], console: Console(out: { _ in }, error: { error += $0 }))
        #expect(empty == 2)
        #expect(error.contains("standard input") && error.contains("empty"), "\(error)")
    }

    @Test("a file of segment files (one sent on its own, or several concatenated) is read as the journal they make")
    func segmentFileAsJournal() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let file = path + "-segments.lz4"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(try Self.concatenatedSegments(of: path)).write(to: URL(fileURLWithPath: file))
        for arguments in [["verify"], ["cat", "--from", "290"], ["audit"], ["check", "--jobs", "1"]] {
            let (status, fromFile) = Self.run(arguments + [file])
            let (reference, fromDirectory) = Self.run(arguments + [path])
            #expect(status == reference, "\(arguments)")
            #expect(fromFile.replacingOccurrences(of: file + "/", with: "").replacingOccurrences(of: file, with: "J")
                    == fromDirectory.replacingOccurrences(of: path + "/", with: "").replacingOccurrences(of: path, with: "J"),
                    "\(arguments)")
        }
        // A file that is not one is refused, by its name.
        var error = ""
        let notOne = ReplayCommandLine.run(["info", file + "-not"], console: Console(out: { _ in }, error: { error += $0 }))
        #expect(notOne == 2)
        try Data("{\"seq\":1}\n".utf8).write(to: URL(fileURLWithPath: file))
        error = ""
        let text = ReplayCommandLine.run(["info", file], console: Console(out: { _ in }, error: { error += $0 }))
        #expect(text == 2)
        #expect(error.contains(file + ": not a journal segment"), "\(error)")
    }

    @Test("the replay executable reads `-` from its standard input", .enabled(if: Self.executable != nil))
    func executableReadsStandardInput() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["verify", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(try Self.concatenatedSegments(of: path)))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.hasPrefix("ok: 305 records in 5 segments"), "\(printed)")
    }

    /// The `replay` binary built beside the test bundle, when present.
    static let executable: URL? = {
        let candidates = [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("replay")
        } + [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("replay")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
