import Foundation

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

    /// ``readLine()`` on a thread of its own, so a test waiting for its child never holds one of
    /// the few threads Swift concurrency shares with every other test running in parallel.
    func nextLine() async -> String? {
        (try? await onOwnThread { self.readLine() }) ?? nil
    }

    /// ``wait()`` on a thread of its own.
    func exitStatus() async -> Int32 {
        (try? await onOwnThread { self.wait() }) ?? -1
    }

    /// ``kill()`` on a thread of its own.
    func killAndReap() async {
        _ = try? await onOwnThread { self.kill() }
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

/// A fresh directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init(_ label: String = #function) {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "reliability-tests/\(safe)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A tiny deterministic random number generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Runs `body` on a thread of its own and returns its result. `body` must not record test issues
/// (`#expect`): they would not be attributed to the test.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
