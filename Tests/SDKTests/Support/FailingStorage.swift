import Foundation
import Journal
import Locking

/// Real files whose writes and syncs fail while the test says so: a disk that fills up, then
/// has room again.
final class FailingStorage: JournalStorage {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device (injected)" }
    }

    private let inner = PosixStorage()
    private let failing = Locked(false)

    func startFailing() { failing.withLock { $0 = true } }
    func stopFailing() { failing.withLock { $0 = false } }

    func check() throws {
        if failing.withLock({ $0 }) { throw DiskFull() }
    }

    func createDirectory(at path: String) throws { try inner.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try inner.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile {
        try check()
        return FailingFile(inner: try inner.createFile(at: path), storage: self)
    }
    func openForAppending(at path: String) throws -> any WritableFile {
        FailingFile(inner: try inner.openForAppending(at: path), storage: self)
    }
    func sizeOfFile(at path: String) throws -> Int { try inner.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents { try inner.contents(of: path) }
    func removeFile(at path: String) throws { try inner.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try inner.synchronizeDirectory(at: path) }

    final class FailingFile: WritableFile {
        let inner: any WritableFile
        let storage: FailingStorage

        init(inner: any WritableFile, storage: FailingStorage) {
            self.inner = inner
            self.storage = storage
        }

        var size: Int { inner.size }
        func append(_ bytes: UnsafeRawBufferPointer) throws {
            try storage.check()
            try inner.append(bytes)
        }
        func synchronize() throws {
            try storage.check()
            try inner.synchronize()
        }
        func truncate(to length: Int) throws { try inner.truncate(to: length) }
    }
}
