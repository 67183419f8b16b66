import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes away.
/// Every test gets its own, so tests run in parallel without sharing files.
final class TemporaryDirectory: Sendable {
    let path: String

    init(_ label: String = #function) {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "journal-tests/\(safe)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside this directory.
    func file(_ name: String) -> String { path + "/" + name }
}
