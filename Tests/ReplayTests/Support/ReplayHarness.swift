import Foundation
import Journal
import TestSupport
import ReplayKit
import replay

/// Runs `replay` in-process with captured output.
struct ReplayRun: Sendable {
    var status: Int32
    var out: String
    var error: String
}

enum ReplayHarness {
    /// Runs `replay arguments`; `input` is what standard input holds, line by line.
    static func run(_ arguments: [String], input: [String] = []) -> ReplayRun {
        var out = ""
        var error = ""
        var lines = input[...]
        let console = Console(out: { out += $0 }, error: { error += $0 }, input: { lines.popFirst() })
        let status = ReplayCommandLine.run(arguments, console: console)
        return ReplayRun(status: status, out: out, error: error)
    }

    /// A fresh directory, removed by the caller's `defer`.
    static func temporaryDirectory() -> String {
        let path = TemporaryDirectory.uniquePath("replay")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A small deterministic raw journal: byte-for-byte the same on every run.
    static func writeRawJournal(at path: String, records: Int = 40) throws {
        var options = JournalOptions()
        options.segmentBytes = 1024
        options.frameBytes = 1024
        options.maxGroupBytes = 512
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false)
        options.journalID = UUID(uuidString: "5EED0000-0000-4000-8000-000000000001")
        options.producer = "replay-tests"
        options.monotonicNanoseconds = { 0 }
        let writer = try JournalWriter(directory: path, options: options) { request in Array("state@\(request.sequence)".utf8) }
        for index in 0..<records {
            let payload = Array("record \(index) \(String(repeating: "abc", count: index % 7))".utf8)
            try writer.append(kind: 16 + UInt32(index % 3),
                              timestamp: JournalTime(microsecondsSince1970: 1_764_000_000_000_000 + Int64(index) * 250_000),
                              payload: payload)
        }
        try writer.close()
    }
}
