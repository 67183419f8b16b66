import Foundation
import Journal

/// Where the replay fuzz target works: one private temporary directory holding the fixture
/// journals, made once per process, and a scratch directory emptied after every input.
///
/// The directory is `$REPLAY_FUZZ_DIR/replay-fuzz-<pid>` when that variable is set (`make fuzz`
/// sets it, and removes it afterwards), otherwise under `/dev/shm` (where the journal's
/// `fsync` costs nothing) or the system's temporary directory. It is removed at exit.
final class ReplayFuzzWorkspace: Sendable {
    /// The workspace of this process, made on first use; an error when it could not be made.
    static let shared: Result<ReplayFuzzWorkspace, WorkspaceError> = {
        do {
            let workspace = try ReplayFuzzWorkspace()
            atexit { if case .success(let workspace) = ReplayFuzzWorkspace.shared { workspace.remove() } }
            return .success(workspace)
        } catch {
            return .failure(WorkspaceError(description: "cannot make the replay fuzz workspace: \(error)"))
        }
    }()

    struct WorkspaceError: Error, CustomStringConvertible {
        var description: String
    }

    let root: String
    /// The fixture SDK journal (several segments).
    let journal: String
    /// The fixture journal with a flipped byte in a sealed segment and its last segment cut short.
    let damaged: String
    /// A journal whose records are not SDK facts.
    let raw: String
    /// A path that does not exist.
    let missing: String
    /// Emptied after every input: the only place a command line may write.
    let scratch: String

    private init() throws {
        let environment = ProcessInfo.processInfo.environment
        let parent = environment["REPLAY_FUZZ_DIR"]
            ?? (FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
        root = parent + "/replay-fuzz-\(getpid())"
        journal = root + "/journal"
        damaged = root + "/damaged"
        raw = root + "/raw"
        missing = root + "/missing"
        scratch = root + "/scratch"
        let manager = FileManager.default
        try? manager.removeItem(atPath: root)
        try manager.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try FixtureJournal.writeStory(to: journal)
        try FixtureJournal.writeStory(to: damaged)
        try Self.damage(damaged)
        try FixtureJournal.writeRaw(to: raw, payloads: (0..<40).map { Array("record \($0) \(String(repeating: "xyz", count: $0 % 9))".utf8) })
    }

    /// Flips a byte in the middle of the second segment and cuts the last one short.
    private static func damage(_ directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".lz4") }.sorted()
        guard names.count >= 3 else { throw WorkspaceError(description: "the fixture journal has \(names.count) segments, 3 needed") }
        let sealed = URL(fileURLWithPath: directory + "/" + names[1])
        var bytes = try Data(contentsOf: sealed)
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: sealed)
        let last = URL(fileURLWithPath: directory + "/" + names[names.count - 1])
        let tail = try Data(contentsOf: last)
        try tail.prefix(tail.count - tail.count / 3).write(to: last)
    }

    /// Makes a fresh empty directory at `path` (in the scratch directory) and returns the path.
    func makeEmptyDirectory(_ path: String) -> String {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes everything an input wrote.
    func clearScratch() {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: scratch)) ?? [] {
            try? manager.removeItem(atPath: scratch + "/" + name)
        }
    }

    private func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
