import Foundation
import Testing
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

    /// Runs `replay arguments… <a fresh copy of the golden journal name of format version>`.
    static func replay(_ arguments: [String], on name: String, format version: String = "v1.0") throws -> ReplayRun {
        let copy = try copy(name, format: version)
        defer { remove(copy) }
        return ReplayHarness.run(arguments + [copy])
    }

    /// Runs a `--json` command on a copy, expects exit status `status`, and parses its one JSON object.
    static func json(_ arguments: [String], on name: String, format version: String = "v1.0", status: Int32 = 0,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONProbe {
        let run = try replay(arguments, on: name, format: version)
        #expect(run.status == status, "\(arguments) on \(name): \(run.error)", sourceLocation: sourceLocation)
        return try #require(JSONProbe(parsing: run.out), "\(arguments) on \(name) printed no JSON: \(run.out.prefix(200))",
                            sourceLocation: sourceLocation)
    }
}
