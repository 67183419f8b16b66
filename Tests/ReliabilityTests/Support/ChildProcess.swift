import Foundation
import TestSupport

/// A child process of the `crash-child` executable, with its stdout read line by line.
///
/// Unchecked Sendable: one test drives one child, one call at a time (each awaited before the
/// next), so its line buffer is never touched by two threads at once.
final class ChildProcess: @unchecked Sendable {
    /// The `crash-child` binary built beside the test bundle, when present.
    static let executable: URL? = {
        let candidates = [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("crash-child")
        } + [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("crash-child")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private var buffer: [UInt8] = []

    init(arguments: [String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
    }

    /// Writes `line` and a newline to the child's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
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

    /// ``readLine()`` on a thread of its own, so a test waiting for its child never holds one of
    /// the few threads Swift concurrency shares with every other test running in parallel.
    func nextLine() async -> String? {
        await onOwnThread { self.readLine() }
    }

    /// ``wait()`` on a thread of its own.
    func exitStatus() async -> Int32 {
        await onOwnThread { self.wait() }
    }

    /// ``kill()`` on a thread of its own.
    func killAndReap() async {
        await onOwnThread { self.kill() }
    }

    /// SIGKILL, then reap.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for a normal exit; returns the status.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}
