import Journal
import Locking

/// An `InMemoryStorage` whose next `synchronize()` can be made to fail, as a disk does with
/// EIO, or whose every `synchronize()` fails for a while (until ``repair()``): the journal
/// writer then fails for good, exactly as it would on a real device, and the engine opens a new
/// one once the disk works again.
public final class FailingSyncStorage: JournalStorage {
    /// The storage underneath (what a power loss is simulated on).
    public let memory: InMemoryStorage
    private let failNextSync = Locked(false)
    private let broken = Locked(false)

    public init(memory: InMemoryStorage) {
        self.memory = memory
    }

    /// The next `synchronize()` of any file throws.
    public func armSyncFailure() {
        failNextSync.withLock { $0 = true }
    }

    /// Every `synchronize()` fails until ``repair()``.
    public func breakDisk() {
        broken.withLock { $0 = true }
    }

    public func repair() {
        broken.withLock { $0 = false }
        failNextSync.withLock { $0 = false }
    }

    public var isBroken: Bool { broken.withLock { $0 } }

    public func createDirectory(at path: String) throws { try memory.createDirectory(at: path) }
    public func contentsOfDirectory(at path: String) throws -> [String] { try memory.contentsOfDirectory(at: path) }
    public func createFile(at path: String) throws -> any WritableFile { File(inner: try memory.createFile(at: path), failNextSync: failNextSync, broken: broken) }
    public func openForAppending(at path: String) throws -> any WritableFile {
        File(inner: try memory.openForAppending(at: path), failNextSync: failNextSync, broken: broken)
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

        init(inner: any WritableFile, failNextSync: Locked<Bool>, broken: Locked<Bool>) {
            self.inner = inner
            self.failNextSync = failNextSync
            self.broken = broken
        }

        var size: Int { inner.size }
        func append(_ bytes: UnsafeRawBufferPointer) throws { try inner.append(bytes) }
        func truncate(to length: Int) throws { try inner.truncate(to: length) }

        func synchronize() throws {
            if broken.withLock({ $0 }) || failNextSync.withLock({ was in defer { was = false }; return was }) {
                throw JournalError.io(path: "simulated", operation: "fdatasync", code: 5)
            }
            try inner.synchronize()
        }
    }
}
