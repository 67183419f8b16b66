#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``JournalLock`` could not be taken. Each case names the lock file.
public enum JournalLockError: Error, Sendable, Equatable {
    /// Another process (or another opening in this one) writes this journal now; `holder` is what
    /// its lock file says (`pid N token …`).
    case held(path: String, holder: String)
    /// Opening, locking or writing the lock file failed.
    case io(path: String, operation: String, code: Int32)
}

extension JournalLockError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .held(let path, let holder):
            "\(path): the journal is being written by another writer (\(holder)): one writer per journal"
        case .io(let path, let operation, let code):
            "\(path): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
