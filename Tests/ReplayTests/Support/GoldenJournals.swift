import Foundation
import TestSupport

/// The golden journals of journal format 1.0, committed under `Tests/Fixtures/journals/v1.0`
/// (outside every target, so SwiftPM takes them for neither sources nor resources).
enum GoldenJournals {
    /// The golden journals of every format version, one directory per version (`v1.0`, `v1.1`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/journals").path
    static let directory = root + "/v1.0"

    /// A fresh copy of the golden journal `name` of format `version` in a temporary directory, so no command can
    /// change the committed files. The caller removes it (``remove(_:)``).
    static func copy(_ name: String, format version: String = "v1.0") throws -> String {
        let copy = TemporaryDirectory.uniquePath("golden-\(name)")
        try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/" + version + "/" + name, toPath: copy)
        return copy
    }

    static func remove(_ copy: String) {
        try? FileManager.default.removeItem(atPath: copy)
    }
}
