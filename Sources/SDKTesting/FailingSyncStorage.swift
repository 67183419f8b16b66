import Journal
import Locking

/// An `InMemoryStorage` whose next `synchronize()` can be made to fail, as a disk does with
/// EIO, whose every `synchronize()` fails for a while, or which fills up for a while (every
/// write fails with ENOSPC after writing the first half of its bytes), until ``repair()``: the
/// journal writer then fails for good, exactly as it would on a real device, and the engine
/// opens a new one once the disk works again.
public final class FailingSyncStorage: JournalStorage {
    /// The storage underneath (what a power loss is simulated on).
    public let memory: InMemoryStorage
    private let failNextSync = Locked(false)
    private let broken = Locked(false)
    private let full = Locked(false)
    private let hold: SyncHold?

    /// Storage over `memory`; with `hold`, every file's sync passes through it first (so a test
    /// can keep the group-commit thread inside a sync while the disk changes).
    public init(memory: InMemoryStorage, hold: SyncHold? = nil) {
        self.memory = memory
        self.hold = hold
    }

    /// The next `synchronize()` of any file throws.
    public func armSyncFailure() {
        failNextSync.withLock { $0 = true }
    }

    /// Every `synchronize()` fails until ``repair()``.
    public func breakDisk() {
        broken.withLock { $0 = true }
    }

    /// Every write fails until ``repair()``, as on a full disk: it writes the first half of
    /// its bytes (a write cut short), then throws ENOSPC.
    public func fillDisk() {
        full.withLock { $0 = true }
    }

    public func repair() {
        broken.withLock { $0 = false }
        failNextSync.withLock { $0 = false }
        full.withLock { $0 = false }
    }

    public var isBroken: Bool { broken.withLock { $0 } }
    public var isFull: Bool { full.withLock { $0 } }

    public func createDirectory(at path: String) throws { try memory.createDirectory(at: path) }
    public func contentsOfDirectory(at path: String) throws -> [String] { try memory.contentsOfDirectory(at: path) }
    public func createFile(at path: String) throws -> any WritableFile {
        File(inner: try memory.createFile(at: path), failNextSync: failNextSync, broken: broken, full: full, hold: hold)
    }
    public func openForAppending(at path: String) throws -> any WritableFile {
        File(inner: try memory.openForAppending(at: path), failNextSync: failNextSync, broken: broken, full: full, hold: hold)
    }
    public func sizeOfFile(at path: String) throws -> Int { try memory.sizeOfFile(at: path) }
    public func contents(of path: String) throws -> any FileContents { try memory.contents(of: path) }
    public func removeFile(at path: String) throws { try memory.removeFile(at: path) }
    public func synchronizeDirectory(at path: String) throws {
        if isBroken { throw JournalError.io(path: path, operation: "fsync", code: 5) }
        try memory.synchronizeDirectory(at: path)
    }
}

extension FailingSyncStorage {
    /// A file of ``FailingSyncStorage``.
    final class File: WritableFile {
        private let inner: any WritableFile
        private let failNextSync: Locked<Bool>
        private let broken: Locked<Bool>
        private let full: Locked<Bool>
        private let hold: SyncHold?

        init(inner: any WritableFile, failNextSync: Locked<Bool>, broken: Locked<Bool>, full: Locked<Bool>, hold: SyncHold?) {
            self.inner = inner
            self.failNextSync = failNextSync
            self.broken = broken
            self.full = full
            self.hold = hold
        }

        var size: Int { inner.size }
        func append(_ bytes: UnsafeRawBufferPointer) throws {
            if full.withLock({ $0 }) {
                try inner.append(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count / 2)]))
                throw JournalError.io(path: "simulated", operation: "write", code: 28)
            }
            try inner.append(bytes)
        }
        func truncate(to length: Int) throws { try inner.truncate(to: length) }

        func synchronize() throws {
            hold?.passThrough()
            if broken.withLock({ $0 }) || failNextSync.withLock({ was in defer { was = false }; return was }) {
                throw JournalError.io(path: "simulated", operation: "fdatasync", code: 5)
            }
            try inner.synchronize()
        }
    }
}
