// A child process for the crash tests: it appends and reports what is durable until the parent
// kills it with SIGKILL. Not a user-facing tool.
//
//   crash-child journal DIR SEED
//   crash-child sdk DIR PORT SEED LENGTH FROM-STEP RUN   (see SDKCrashChild)
//   crash-child process DIR ROLE COUNT                   (see ExtensionChild)
//
// Appends records whose payloads count up ("n=1", "n=2", ... continuing across restarts), and
// after every `sync()` prints "durable SEQ" on stdout. The parent kills it at a random moment and
// checks that everything reported durable survived, in order, with no duplicates or holes.
import Foundation
import Journal

/// The journal half of the crash child.
struct JournalCrashChild {
    let directory: String
    var random: XorShift

    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("crash-child: \(message)\n".utf8))
        exit(2)
    }

    mutating func run() -> Never {
        var options = JournalOptions()
        options.segmentBytes = 16 << 10
        options.frameBytes = 4 << 10
        options.retainedBytes = nil
        options.groupCommit = GroupCommit(maxRecords: 8, maxDelay: .milliseconds(1), synchronizesEachGroup: true)
        let writer: JournalWriter
        var counter = 0
        do {
            writer = try JournalWriter(directory: directory, options: options) { request in
                Array("snapshot \(request.sequence)".utf8)
            }
            // Continue the count from the last record that survived.
            let cursor = try JournalReader(directory: directory).records()
            while let record = try cursor.next() {
                if let value = Self.counter(in: record) { counter = value }
            }
        } catch {
            fail("open: \(error)")
        }
        while true {
            var last: UInt64 = 0
            for _ in 0..<(1 + random.next(below: 20)) {
                counter += 1
                let padding = String(repeating: "x", count: random.next(below: 120))
                do {
                    last = try writer.append(kind: 16, timestamp: JournalTime(Date()), payload: Array("n=\(counter) \(padding)".utf8))
                } catch {
                    fail("append: \(error)")
                }
            }
            do {
                let durable = try writer.sync()
                if durable < last { fail("sync returned \(durable) before \(last)") }
                FileHandle.standardOutput.write(Data("durable \(durable)\n".utf8))
            } catch {
                fail("sync: \(error)")
            }
        }
    }

    /// The counter in a record's payload ("n=COUNT ..."), nil for snapshots.
    static func counter(in record: JournalRecord) -> Int? {
        guard !record.isSnapshot else { return nil }
        return Int(String(decoding: record.payload.prefix { $0 != UInt8(ascii: " ") }.dropFirst(2), as: UTF8.self))
    }
}

/// xorshift64: small, deterministic, good enough to vary group sizes.
struct XorShift {
    var state: UInt64

    mutating func next(below bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "journal", let seed = UInt64(arguments[3]) {
    var child = JournalCrashChild(directory: arguments[2], random: XorShift(state: seed | 1))
    child.run()
}
if arguments.count == 8, arguments[1] == "sdk", let port = Int(arguments[3]), let seed = UInt64(arguments[4]),
   let length = Int(arguments[5]), let from = Int(arguments[6]), let run = Int(arguments[7]) {
    SDKCrashChild(directory: arguments[2], port: port, seed: seed, fromStep: from, runNumber: run, length: length).run()
}
if arguments.count == 5, arguments[1] == "process", let count = Int(arguments[4]) {
    ExtensionChild(directory: arguments[2], role: arguments[3], count: count).run()
}
FileHandle.standardError.write(Data("usage: crash-child journal DIR SEED | crash-child sdk DIR PORT SEED LENGTH FROM-STEP RUN | crash-child process DIR ROLE COUNT\n".utf8))
exit(2)
