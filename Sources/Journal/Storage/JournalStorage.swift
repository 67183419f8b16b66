/// The file operations the journal performs, as a seam: the default is ``PosixStorage``; tests
/// and simulators substitute layers that inject faults or keep only what was synced.
///
/// Paths are plain strings. Every method either completes or throws a ``JournalError/io(path:operation:code:)``
/// naming the path and the operation.
public protocol JournalStorage: Sendable {
    /// Creates the directory (and missing parents) with mode 0700 if it does not exist.
    func createDirectory(at path: String) throws
    /// The names (not paths) of the entries in `path`, in no particular order.
    func contentsOfDirectory(at path: String) throws -> [String]
    /// Creates a new, empty file with mode 0600; fails if it exists.
    func createFile(at path: String) throws -> any WritableFile
    /// Opens an existing file for appending at its end.
    func openForAppending(at path: String) throws -> any WritableFile
    /// The file's length in bytes.
    func sizeOfFile(at path: String) throws -> Int
    /// Maps or reads the whole file for reading.
    func contents(of path: String) throws -> any FileContents
    /// Deletes a file; a file that does not exist is no error.
    func removeFile(at path: String) throws
    /// Makes the directory's entries (created, removed files) durable.
    func synchronizeDirectory(at path: String) throws
    /// Takes the directory's inter-process lock (``JournalLock``), or nil where no other process
    /// can reach the journal (in memory, a simulated disk). Throws ``JournalLockError`` when
    /// another writer holds it. The default is nil; ``PosixStorage`` locks.
    func lockDirectory(at path: String) throws -> JournalLock?
}

extension JournalStorage {
    public func lockDirectory(at path: String) throws -> JournalLock? { nil }
}

/// A file open for appending.
public protocol WritableFile: AnyObject, Sendable {
    /// The file's current length in bytes.
    var size: Int { get }
    /// Appends all of `bytes` at the end of the file.
    func append(_ bytes: UnsafeRawBufferPointer) throws
    /// Makes everything appended so far durable (`fdatasync` on Linux, `fcntl(F_FULLFSYNC)` on
    /// Apple platforms).
    func synchronize() throws
    /// Cuts the file to `length` bytes; later appends continue there.
    func truncate(to length: Int) throws
}

/// A read-only view of a file's bytes as they were when it was opened.
public protocol FileContents: AnyObject, Sendable {
    /// The file's bytes. The memory stays valid and unchanged for as long as this object lives.
    var bytes: UnsafeRawBufferPointer { get }
    /// Hints that the bytes in `range` will not be read again, so their pages may be released.
    func discard(_ range: Range<Int>)
}
