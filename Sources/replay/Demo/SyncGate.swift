import Dispatch
import Foundation
import Journal
import Synchronization

/// Holds the journal's next `fdatasync` while armed: the demo's way of making a durability
/// request answer late, deterministically.
///
/// The demo arms it just before a call whose flush it wants late; with a group-commit thread
/// and a segment size the demo never reaches, that flush's sync (on the group-commit thread)
/// is the only one while armed. Arming holds the next sync until ``release()``.
final class SyncGate: Sendable {
    private let armed = Mutex(false)
    private let opened = DispatchSemaphore(value: 0)
    /// Counts the syncs that were held.
    let arrivals = ArrivalCounter()

    /// Holds the next group-commit sync.
    func arm() {
        armed.withLock { $0 = true }
    }

    /// Lets the held sync (or the next one) finish; disarms.
    func release() {
        let wasArmed = armed.withLock { state -> Bool in
            defer { state = false }
            return state
        }
        if wasArmed { opened.signal() }
    }

    /// Called by a file about to sync: blocks while the gate is armed.
    func passThrough() {
        guard armed.withLock({ $0 }) else { return }
        arrivals.arrive()
        opened.wait()
    }
}

/// The POSIX storage, with every file's sync passing through a ``SyncGate``.
struct GatedStorage: JournalStorage {
    let base = PosixStorage()
    let gate: SyncGate

    func createDirectory(at path: String) throws { try base.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try base.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile { GatedFile(file: try base.createFile(at: path), gate: gate) }
    func openForAppending(at path: String) throws -> any WritableFile {
        GatedFile(file: try base.openForAppending(at: path), gate: gate)
    }
    func sizeOfFile(at path: String) throws -> Int { try base.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents { try base.contents(of: path) }
    func removeFile(at path: String) throws { try base.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try base.synchronizeDirectory(at: path) }
}

/// A file whose `synchronize()` waits at the gate first.
final class GatedFile: WritableFile {
    private let file: any WritableFile
    private let gate: SyncGate

    init(file: any WritableFile, gate: SyncGate) {
        self.file = file
        self.gate = gate
    }

    var size: Int { file.size }
    func append(_ bytes: UnsafeRawBufferPointer) throws { try file.append(bytes) }
    func truncate(to length: Int) throws { try file.truncate(to: length) }

    func synchronize() throws {
        gate.passThrough()
        try file.synchronize()
    }
}
