#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Journal
import Locking

/// A journal storage (`Base`: in memory, or the real files) that refuses to open files while
/// the device is "locked", as iOS does for a file protection class before the first unlock
/// after boot: while ``isLocked``, creating, opening, reading, measuring or removing a file
/// fails with `EPERM` (the directories can still be made and listed). ``unlock()`` lets opens
/// through again; ``lock()`` refuses them again.
///
/// An `EngagementSDK` over it starts in its "storage unavailable" mode, as on a device launched
/// before the first unlock; tests unlock it and then call `protectedDataDidBecomeAvailable()` or
/// advance the clock past the retry interval. The errors name the file and `EPERM`.
public final class LockedDeviceStorage<Base: JournalStorage>: JournalStorage {
    /// The storage underneath.
    public let base: Base
    private let state: Locked<(locked: Bool, refusals: Int)>

    /// Storage over `base`, locked or not from the start.
    public init(base: Base, locked: Bool = true) {
        self.base = base
        state = Locked((locked, 0))
    }

    /// Refuse file opens from now on.
    public func lock() {
        state.withLock { $0.locked = true }
    }

    /// Let file opens through from now on (the user unlocked the device).
    public func unlock() {
        state.withLock { $0.locked = false }
    }

    /// Whether file opens are refused now.
    public var isLocked: Bool { state.withLock { $0.locked } }

    /// How many operations were refused so far.
    public var refusals: Int { state.withLock { $0.refusals } }

    /// Throws `EPERM` for `operation` on `path` while locked.
    private func checkUnlocked(_ path: String, _ operation: String) throws {
        let locked = state.withLock { state -> Bool in
            if state.locked { state.refusals += 1 }
            return state.locked
        }
        if locked { throw JournalError.io(path: path, operation: operation, code: EPERM) }
    }

    public func createDirectory(at path: String) throws { try base.createDirectory(at: path) }
    public func contentsOfDirectory(at path: String) throws -> [String] { try base.contentsOfDirectory(at: path) }
    public func createFile(at path: String) throws -> any WritableFile {
        try checkUnlocked(path, "open")
        return try base.createFile(at: path)
    }
    public func openForAppending(at path: String) throws -> any WritableFile {
        try checkUnlocked(path, "open")
        return try base.openForAppending(at: path)
    }
    public func sizeOfFile(at path: String) throws -> Int {
        try checkUnlocked(path, "stat")
        return try base.sizeOfFile(at: path)
    }
    public func contents(of path: String) throws -> any FileContents {
        try checkUnlocked(path, "open")
        return try base.contents(of: path)
    }
    public func removeFile(at path: String) throws {
        try checkUnlocked(path, "unlink")
        try base.removeFile(at: path)
    }
    public func synchronizeDirectory(at path: String) throws { try base.synchronizeDirectory(at: path) }
}
