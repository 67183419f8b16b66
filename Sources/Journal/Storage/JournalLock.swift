#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import Locking

/// An advisory, inter-process lock on a journal directory: `flock(LOCK_EX | LOCK_NB)` on the file
/// ``fileName`` in it, so that no two processes (nor two openings in one process) ever write one
/// journal. Readers (`replay`, a diagnostics copy) never take it.
///
/// The lock is held from ``acquire(directory:)`` until ``release()`` (a ``JournalWriter`` with
/// ``JournalOptions/locksDirectory`` releases it when it closes); the kernel drops it when the
/// process dies, so a crashed writer never leaves it behind. The lock file names its last holder
/// (`pid N token UUID`), which a refused opening quotes. On iOS a suspended process that holds a
/// file lock in an App Group container is killed (0xdead10cc): the SDK closes its journal, and so
/// gives the lock back, before the app is suspended (docs/PLATFORMS.md, "App extensions").
///
/// Thread-safe. Never blocks: a lock held elsewhere is an error at once, naming the holder.
public final class JournalLock: Sendable {
    /// The lock file's name inside the journal directory.
    public static let fileName = "lock"
    /// The lock file's path.
    public let path: String
    /// What this lock writes into the lock file when it takes it: `pid N token UUID`.
    public let holder: String
    /// The open, locked descriptor while held; nil while given back.
    private let descriptor: Locked<Int32?>

    private init(path: String, holder: String, descriptor: Int32) {
        self.path = path
        self.holder = holder
        self.descriptor = Locked(descriptor)
    }

    deinit {
        release()
    }

    /// Takes the lock of the journal in `directory` (which must exist), creating the lock file
    /// (mode 0600) if needed. Throws ``JournalLockError/held(path:holder:)`` when another process
    /// (or another opening in this one) holds it, ``JournalLockError/io(path:operation:code:)``
    /// when the file cannot be opened or locked.
    public static func acquire(directory: String) throws(JournalLockError) -> JournalLock {
        let path = directory + "/" + fileName
        let holder = "pid \(getpid()) token \(UUID().uuidString)"
        let descriptor = try lock(path: path)
        try write(holder, to: descriptor, path: path)
        return JournalLock(path: path, holder: holder, descriptor: descriptor)
    }

    /// Whether this lock is held now.
    public var isHeld: Bool { descriptor.withLock { $0 != nil } }

    /// Gives the lock back (unlocks and closes the file). Doing it again does nothing.
    public func release() {
        descriptor.withLock { held in
            guard let file = held else { return }
            _ = flock(file, LOCK_UN)
            close(file)
            held = nil
        }
    }

    /// Opens and locks the file at `path`; the descriptor is locked on return.
    private static func lock(path: String) throws(JournalLockError) -> Int32 {
        let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard file >= 0 else { throw .io(path: path, operation: "open", code: errno) }
        if flock(file, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            let found = contents(of: file)
            close(file)
            if code == EWOULDBLOCK || code == EAGAIN {
                throw .held(path: path, holder: found.isEmpty ? "another process" : found)
            }
            throw .io(path: path, operation: "flock", code: code)
        }
        return file
    }

    /// Replaces the lock file's contents with `holder`.
    private static func write(_ holder: String, to descriptor: Int32, path: String) throws(JournalLockError) {
        let bytes = Array(holder.utf8)
        guard ftruncate(descriptor, 0) == 0 else {
            let code = errno
            close(descriptor)
            throw .io(path: path, operation: "ftruncate", code: code)
        }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else {
            let code = errno
            close(descriptor)
            throw .io(path: path, operation: "pwrite", code: code)
        }
    }

    /// The lock file's text (at most 256 bytes; empty when unreadable).
    private static func contents(of descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
