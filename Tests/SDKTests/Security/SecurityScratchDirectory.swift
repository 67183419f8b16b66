import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes away.
/// Every security test makes its own, so tests run in parallel without sharing files.
final class SecurityScratchDirectory: Sendable {
    let path: String

    init(_ label: String = #function) {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "security-tests/\(safe)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside this directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// The names of everything in this directory, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
