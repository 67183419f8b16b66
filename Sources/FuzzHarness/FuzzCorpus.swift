import Foundation

/// The committed seed corpus of a fuzz target (`Fuzz/Corpus/<target>/`), for the tests that run
/// every seed through its harness.
package enum FuzzCorpus {
    /// The seeds of `target`, by file name, sorted; empty when the directory is missing.
    package static func seeds(of target: String, packageRoot: String) -> [(name: String, bytes: [UInt8])] {
        let directory = packageRoot + "/Fuzz/Corpus/" + target
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return names.compactMap { name in
            FileManager.default.contents(atPath: directory + "/" + name).map { (name, [UInt8]($0)) }
        }
    }

    /// The package root, from the path of a source file three levels below it
    /// (`Tests/<Suite>/<File>.swift`): pass `#filePath`.
    package static func packageRoot(fromTestFile path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
