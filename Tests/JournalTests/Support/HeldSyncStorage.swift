import Dispatch
import Journal
import Locking

/// In-memory storage whose file syncs can be held: while held, `synchronize()` blocks until
/// ``release()``. A group-commit thread caught in it has fallen behind, without any clock.
final class HeldSyncStorage: JournalStorage {
    let inner = InMemoryStorage()
    private let held = Locked(false)
    private let gate = DispatchSemaphore(value: 0)

    func hold() { held.withLock { $0 = true } }

    func release() {
        held.withLock { $0 = false }
        gate.signal()
    }

    func createDirectory(at path: String) throws { try inner.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try inner.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile { Handle(inner: try inner.createFile(at: path), storage: self) }
    func openForAppending(at path: String) throws -> any WritableFile { Handle(inner: try inner.openForAppending(at: path), storage: self) }
    func sizeOfFile(at path: String) throws -> Int { try inner.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents { try inner.contents(of: path) }
    func removeFile(at path: String) throws { try inner.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try inner.synchronizeDirectory(at: path) }

    fileprivate func waitWhileHeld() {
        while held.withLock({ $0 }) {
            gate.wait()
        }
        // Pass the release on to any other thread that was held.
        gate.signal()
    }

    final class Handle: WritableFile {
        let inner: any WritableFile
        let storage: HeldSyncStorage
        init(inner: any WritableFile, storage: HeldSyncStorage) {
            self.inner = inner
            self.storage = storage
        }
        var size: Int { inner.size }
        func append(_ bytes: UnsafeRawBufferPointer) throws { try inner.append(bytes) }
        func synchronize() throws {
            storage.waitWhileHeld()
            try inner.synchronize()
        }
        func truncate(to length: Int) throws { try inner.truncate(to: length) }
    }
}
