import Foundation
import Testing
@testable import Journal

@Suite("Crash loop")
struct CrashLoopTests {
    /// How many kills: 50 by default (CI), more with JOURNAL_CRASH_ITERATIONS.
    static let iterations = ProcessInfo.processInfo.environment["JOURNAL_CRASH_ITERATIONS"].flatMap(Int.init) ?? 50

    @Test("SIGKILL at random moments loses nothing that flush reported durable", .enabled(if: ChildProcess.executable != nil))
    func crashLoop() throws {
        let directory = TemporaryDirectory()
        var generator = SplitMix64(seed: 20_261_129)
        var reportedDurable: UInt64 = 0
        for iteration in 0..<Self.iterations {
            let child = try ChildProcess(arguments: ["journal", directory.path, String(generator.next())])
            let reports = Int(generator.next() % 40) + 1
            var lastReport: UInt64 = 0
            for _ in 0..<reports {
                guard let line = child.readLine() else { break }
                let parts = line.split(separator: " ")
                if parts.count == 2, parts[0] == "durable", let sequence = UInt64(parts[1]) { lastReport = sequence }
            }
            child.kill()
            reportedDurable = max(reportedDurable, lastReport)

            let reader = try JournalReader(directory: directory.path)
            let (records, cursor) = try reader.readAll()
            #expect(cursor.corruption.isEmpty, "iteration \(iteration)")
            let last = records.last?.sequence ?? 0
            #expect(last >= reportedDurable, "iteration \(iteration): reported \(reportedDurable) durable, found up to \(last)")
            #expect(records.map(\.sequence) == Array(1...UInt64(max(records.count, 1))).prefix(records.count).map { $0 })
            let counters = records.filter { !$0.isSnapshot }.map { record in
                Int(String(decoding: record.payload.prefix { $0 != UInt8(ascii: " ") }.dropFirst(2), as: UTF8.self))
            }
            #expect(counters == Array(1...max(counters.count, 1)).prefix(counters.count).map { Optional($0) },
                    "iteration \(iteration): records out of order, duplicated or missing")
        }
        // A final writer recovers whatever the last kill left and the journal verifies clean.
        let writer = try JournalWriter(directory: directory.path, options: JournalOptions()) { _ in [] }
        #expect(writer.recovery.corruption == nil)
        try writer.close()
        #expect(try JournalReader(directory: directory.path).verify().isClean)
    }
}

/// A child process of the `crash-child` executable, with its stdout read line by line.
final class ChildProcess {
    /// The `crash-child` binary built beside the test bundle, when present.
    static let executable: URL? = {
        let candidates = [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("crash-child")
        } + [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("crash-child")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private let process = Process()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    init(arguments: [String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    /// The next line the child printed, or nil once it exited.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }

    /// SIGKILL, then reap.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
