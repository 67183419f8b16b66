import Journal
import Locking

/// The package's one journal-storage double: a storage (`Base`: in memory, or the real files)
/// whose disk fails or stalls on demand, as a device's does.
///
/// - ``armSyncFailure()``: the next `synchronize()` of any file fails (EIO).
/// - ``breakDisk(throwing:)``: every `synchronize()`, of files and directories, fails until
///   ``repair()`` (EIO, or the storage's own error).
/// - ``fillDisk(halfWritten:)``: every write fails with ENOSPC until ``repair()``, after writing
///   the first half of its bytes (a write cut short) or none of them.
/// - ``refuseRemovals(ofFilesEndingIn:times:)``: deleting a file fails (EACCES), as on a device
///   whose file is held open or protected, a number of times.
/// - a ``SyncHold``: every file's sync passes through it first, so a test can keep the
///   group-commit thread inside a sync (while the disk changes, or while appends go on).
///
/// A journal writer over it then fails for good, exactly as it would on a real device, and the
/// SDK opens a new one once the disk works again. The errors name the path `simulated`.
public final class FailingSyncStorage<Base: JournalStorage>: JournalStorage {
    /// The storage underneath.
    public let base: Base
    private let state: FailingDisk

    /// Storage over `base`; with `hold`, every file's sync passes through it first.
    public init(base: Base, hold: SyncHold? = nil) {
        self.base = base
        state = FailingDisk(hold: hold)
    }

    /// The base storage's lock: the disk's failures do not reach it.
    public func lockDirectory(at path: String) throws -> JournalLock? {
        try base.lockDirectory(at: path)
    }

    /// The next `synchronize()` of any file throws (EIO).
    public func armSyncFailure() {
        state.failNextSync.withLock { $0 = true }
    }

    /// Every `synchronize()` fails until ``repair()``: with EIO, or with `error` (a storage of
    /// the app's own may fail with an error that is not a `JournalError`).
    public func breakDisk(throwing error: (any Error)? = nil) {
        state.broken.withLock { $0 = error ?? JournalError.io(path: "simulated", operation: "fdatasync", code: 5) }
    }

    /// Every write fails with ENOSPC until ``repair()``, as on a full disk: after writing the
    /// first half of its bytes (a write cut short), or, without `halfWritten`, none.
    public func fillDisk(halfWritten: Bool = true) {
        state.full.withLock { $0 = halfWritten ? .halfWritten : .refused }
    }

    /// The next `times` attempts to delete a file whose name ends in `suffix` (`.lz4`, a
    /// journal segment) fail with EACCES; the file stays.
    public func refuseRemovals(ofFilesEndingIn suffix: String, times: Int) {
        state.refusedRemovals.withLock { $0 = (suffix, times) }
    }

    /// The disk works again: syncs and writes succeed.
    public func repair() {
        state.broken.withLock { $0 = nil }
        state.failNextSync.withLock { $0 = false }
        state.full.withLock { $0 = nil }
    }

    /// Whether every sync fails (``breakDisk(throwing:)``).
    public var isBroken: Bool { state.broken.withLock { $0 != nil } }
    /// Whether every write fails (``fillDisk(halfWritten:)``).
    public var isFull: Bool { state.full.withLock { $0 != nil } }

    public func createDirectory(at path: String) throws { try base.createDirectory(at: path) }
    public func contentsOfDirectory(at path: String) throws -> [String] { try base.contentsOfDirectory(at: path) }
    public func createFile(at path: String) throws -> any WritableFile {
        FailingSyncFile(inner: try base.createFile(at: path), disk: state)
    }
    public func openForAppending(at path: String) throws -> any WritableFile {
        FailingSyncFile(inner: try base.openForAppending(at: path), disk: state)
    }
    public func sizeOfFile(at path: String) throws -> Int { try base.sizeOfFile(at: path) }
    public func contents(of path: String) throws -> any FileContents { try base.contents(of: path) }
    public func removeFile(at path: String) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let refused = state.refusedRemovals.withLock { refusal -> Bool in
            guard let current = refusal, current.times > 0, name.hasSuffix(current.suffix) else { return false }
            refusal = (current.suffix, current.times - 1)
            return true
        }
        if refused { throw JournalError.io(path: path, operation: "unlink", code: 13) }
        try base.removeFile(at: path)
    }
    public func synchronizeDirectory(at path: String) throws {
        if let error = state.broken.withLock({ $0 }) {
            if case JournalError.io(_, _, let code) = error { throw JournalError.io(path: path, operation: "fsync", code: code) }
            throw error
        }
        try base.synchronizeDirectory(at: path)
    }
}

extension FailingSyncStorage where Base == InMemoryStorage {
    /// Storage over an in-memory file system (what a power loss is simulated on).
    public convenience init(memory: InMemoryStorage, hold: SyncHold? = nil) {
        self.init(base: memory, hold: hold)
    }

    /// The in-memory file system underneath.
    public var memory: InMemoryStorage { base }
}

extension FailingSyncStorage where Base == PosixStorage {
    /// The device's real files, whose syncs pass through `hold` (the demo's way of making one
    /// durability request answer late, deterministically).
    public convenience init(hold: SyncHold) {
        self.init(base: PosixStorage(), hold: hold)
    }
}

/// What the disk of a ``FailingSyncStorage`` does now, shared with its files.
final class FailingDisk: Sendable {
    enum WriteFailure: Sendable {
        case halfWritten, refused
    }

    let failNextSync = Locked(false)
    let broken = Locked<(any Error)?>(nil)
    let full = Locked<WriteFailure?>(nil)
    let refusedRemovals = Locked<(suffix: String, times: Int)?>(nil)
    let hold: SyncHold?

    init(hold: SyncHold?) {
        self.hold = hold
    }
}

/// A file of a ``FailingSyncStorage``.
final class FailingSyncFile: WritableFile {
    private let inner: any WritableFile
    private let disk: FailingDisk

    init(inner: any WritableFile, disk: FailingDisk) {
        self.inner = inner
        self.disk = disk
    }

    var size: Int { inner.size }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure = disk.full.withLock({ $0 }) {
            if failure == .halfWritten { try inner.append(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count / 2)])) }
            throw JournalError.io(path: "simulated", operation: "write", code: 28)
        }
        try inner.append(bytes)
    }

    func truncate(to length: Int) throws { try inner.truncate(to: length) }

    func synchronize() throws {
        disk.hold?.passThrough()
        if let error = disk.broken.withLock({ $0 }) { throw error }
        if disk.failNextSync.withLock({ was in defer { was = false }; return was }) {
            throw JournalError.io(path: "simulated", operation: "fdatasync", code: 5)
        }
        try inner.synchronize()
    }
}
