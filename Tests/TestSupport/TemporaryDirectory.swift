import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes away.
/// Every test makes its own, so tests run in parallel without sharing files.
public final class TemporaryDirectory: Sendable {
    /// The directory's path (created by the initializer).
    public let path: String

    /// Creates the directory; `label` (the calling function by default) makes its name readable.
    public init(_ label: String = #function) {
        path = Self.uniquePath(label)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside this directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names of everything in this directory, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// A path no other call returns, under the system's temporary directory, that does not exist
    /// yet: for code that creates the directory itself, and a caller that removes it.
    public static func uniquePath(_ label: String) -> String {
        let safe = label.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        return NSTemporaryDirectory() + "engagement-tests/\(safe)-\(UUID().uuidString)"
    }
}
