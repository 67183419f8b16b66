import Foundation
import SDKTesting
import Testing
import Journal
import TestSupport

@Suite("Crash loop", .tags(.endToEnd), .timeLimit(.minutes(10)))
struct CrashLoopTests {
    /// How many kills: 50 by default (CI), more with JOURNAL_CRASH_ITERATIONS.
    static let iterations = ProcessInfo.processInfo.environment["JOURNAL_CRASH_ITERATIONS"].flatMap(Int.init) ?? 50

    @Test("SIGKILL at random moments loses nothing that flush reported durable", .enabled(if: ChildProcess.executable != nil))
    func crashLoop() async throws {
        let directory = TemporaryDirectory()
        var generator = SplitMix64(seed: 20_261_129)
        var reportedDurable: UInt64 = 0
        for iteration in 0..<Self.iterations {
            let child = try ChildProcess(arguments: ["journal", directory.path, String(generator.next())])
            let reports = Int(generator.next() % 40) + 1
            var lastReport: UInt64 = 0
            for _ in 0..<reports {
                guard let line = await child.nextLine() else { break }
                let parts = line.split(separator: " ")
                if parts.count == 2, parts[0] == "durable", let sequence = UInt64(parts[1]) { lastReport = sequence }
            }
            await child.killAndReap()
            reportedDurable = max(reportedDurable, lastReport)

            let reader = try JournalReader(directory: directory.path)
            let cursor = try reader.records()
            var records: [JournalRecord] = []
            while let record = try cursor.next() { records.append(record) }
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
