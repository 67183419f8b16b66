import Foundation
import Journal
import Locking
import TestSupport

/// Real files whose `fdatasync` can be held by the test (a disk that is slow to make things
/// durable), and whose writes and syncs can fail (a disk that fills up, then has room again):
/// on demand and without timing.
final class SyncHoldingStorage: JournalStorage {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device (injected)" }
    }

    private let inner = PosixStorage()
    private let failing = Locked(false)
    private let state = Locked<(holding: Bool, waiters: [CheckedContinuation<Void, Never>], held: Int)>((false, [], 0))
    private let released = DispatchSemaphore(value: 0)
    private let heldSignal = Eventually<Int>()

    func holdSyncs() { state.withLock { $0.holding = true } }

    /// From now on every write and sync fails, until ``stopFailing()``.
    func startFailing() { failing.withLock { $0 = true } }
    func stopFailing() { failing.withLock { $0 = false } }

    func failIfFull() throws {
        if failing.withLock({ $0 }) { throw DiskFull() }
    }

    func releaseSyncs() {
        let held = state.withLock { state -> Int in
            state.holding = false
            defer { state.held = 0 }
            return state.held
        }
        for _ in 0..<held { released.signal() }
    }

    func waitUntilSyncHeld() async { _ = await heldSignal.value }

    /// Called by a file's synchronize: blocks while syncs are held.
    func waitWhileHolding() {
        let mustWait = state.withLock { state -> Bool in
            guard state.holding else { return false }
            state.held += 1
            return true
        }
        if mustWait {
            heldSignal.completion(1)
            released.wait()
        }
    }

    func createDirectory(at path: String) throws { try inner.createDirectory(at: path) }
    func contentsOfDirectory(at path: String) throws -> [String] { try inner.contentsOfDirectory(at: path) }
    func createFile(at path: String) throws -> any WritableFile {
        try failIfFull()
        return SyncHeldFile(inner: try inner.createFile(at: path), storage: self)
    }
    func openForAppending(at path: String) throws -> any WritableFile { SyncHeldFile(inner: try inner.openForAppending(at: path), storage: self) }
    func sizeOfFile(at path: String) throws -> Int { try inner.sizeOfFile(at: path) }
    func contents(of path: String) throws -> any FileContents { try inner.contents(of: path) }
    func removeFile(at path: String) throws { try inner.removeFile(at: path) }
    func synchronizeDirectory(at path: String) throws { try inner.synchronizeDirectory(at: path) }

    final class SyncHeldFile: WritableFile {
        let inner: any WritableFile
        let storage: SyncHoldingStorage

        init(inner: any WritableFile, storage: SyncHoldingStorage) {
            self.inner = inner
            self.storage = storage
        }

        var size: Int { inner.size }
        func append(_ bytes: UnsafeRawBufferPointer) throws {
            try storage.failIfFull()
            try inner.append(bytes)
        }
        func synchronize() throws {
            storage.waitWhileHolding()
            try storage.failIfFull()
            try inner.synchronize()
        }
        func truncate(to length: Int) throws { try inner.truncate(to: length) }
    }
}
