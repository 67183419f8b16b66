import Foundation

/// Runs `bench sdk --calls-only --peers journal` under valgrind's callgrind, which counts the
/// instructions of every thread (caller, engine, group commit, transport) and is not moved by a
/// noisy machine.
enum CallgrindRun {
    struct Result {
        var instructions: Int
        /// As `bench sdk --json` printed it for the journal (a number, or nil).
        var journalBytesPerCall: String?
    }

    static func instructions(calls: Int) -> Result {
        let output = NSTemporaryDirectory() + "bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(calls).out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(output)",
                             CommandLine.arguments[0], "sdk", "--calls-only", "--untimed", "--peers", "journal", "--calls", String(calls), "--json"]
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        do {
            try process.run()
        } catch {
            fail("cannot run valgrind (apt-get install valgrind): \(error)")
        }
        let printed = String(decoding: standardOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let log = String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fail("valgrind exited \(process.terminationStatus):\n\(log)") }
        // callgrind ends with "==PID== Collected : N".
        guard let line = log.split(separator: "\n").last(where: { $0.contains("Collected :") }),
              let count = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") else {
            fail("no instruction count in valgrind's output:\n\(log)")
        }
        // The count is for delivered calls only: a run that discarded some measured something else.
        guard printed.contains("\"valid\":true") else { fail("the run under callgrind did not deliver every call: \(printed)") }
        let bytes = printed.range(of: "\"journal_bytes_per_call\":").map { range in
            String(printed[range.upperBound...].prefix { $0 != "}" && $0 != "," })
        }
        return Result(instructions: count, journalBytesPerCall: bytes == "null" ? nil : bytes)
    }
}
