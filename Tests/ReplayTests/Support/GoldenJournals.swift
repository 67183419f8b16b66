import Foundation
import TestSupport

/// The golden journals of journal format 1.0, committed under `Tests/Fixtures/journals/v1.0`
/// (outside every target, so SwiftPM takes them for neither sources nor resources).
enum GoldenJournals {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/journals/v1.0").path

    /// A fresh copy of the golden journal `name` in a temporary directory, so no command can
    /// change the committed files. The caller removes it (``remove(_:)``).
    static func copy(_ name: String) throws -> String {
        let copy = TemporaryDirectory.uniquePath("golden-\(name)")
        try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy)
        return copy
    }

    static func remove(_ copy: String) {
        try? FileManager.default.removeItem(atPath: copy)
    }
}
