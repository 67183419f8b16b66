#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The journal's file operations on a POSIX file system: files 0600, directories 0700,
/// durability by `fdatasync` on Linux and `fcntl(F_FULLFSYNC)` on Apple platforms (where `fsync`
/// does not reach the disk), the directory synced the same way after creating or removing
/// segments; for reading, a small file read into memory, a larger one mapped read-only.
public struct PosixStorage: JournalStorage {
    public init() {}

    public func createDirectory(at path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw JournalError.io(path: prefix, operation: "mkdir", code: errno)
            }
        }
    }

    public func contentsOfDirectory(at path: String) throws -> [String] {
        guard let directory = opendir(path) else {
            throw JournalError.io(path: path, operation: "opendir", code: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // The name is read in place, up to its NUL: a directory entry may be shorter than
            // `dirent`, so copying the whole `d_name` field could read past it (ASan saw it).
            guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { continue }
            let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func createFile(at path: String) throws -> any WritableFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw JournalError.io(path: path, operation: "create", code: errno) }
        return PosixWritableFile(descriptor: descriptor, path: path, size: 0)
    }

    public func openForAppending(at path: String) throws -> any WritableFile {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw JournalError.io(path: path, operation: "open", code: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw JournalError.io(path: path, operation: "fstat", code: code)
        }
        return PosixWritableFile(descriptor: descriptor, path: path, size: Int(status.st_size))
    }

    public func sizeOfFile(at path: String) throws -> Int {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw JournalError.io(path: path, operation: "lstat", code: errno) }
        return Int(status.st_size)
    }

    public func contents(of path: String) throws -> any FileContents {
        try PosixFileContents(path: path)
    }

    public func removeFile(at path: String) throws {
        if unlink(path) != 0 && errno != ENOENT {
            throw JournalError.io(path: path, operation: "unlink", code: errno)
        }
    }

    public func lockDirectory(at path: String) throws -> JournalLock? {
        try JournalLock.acquire(directory: path)
    }

    public func synchronizeDirectory(at path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw JournalError.io(path: path, operation: "open directory", code: errno) }
        defer { close(descriptor) }
        if let code = FileSync.full(of: descriptor) {
            throw JournalError.io(path: path, operation: "\(FileSync.fullCall) directory", code: code)
        }
    }
}
