#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes for reading (``PosixStorage/contents(of:)``): read into memory when it is at
/// most ``wholeReadLimit`` bytes, mapped read-only past that.
///
/// A mapping costs two more system calls than a read, and its unmapping interrupts every other
/// core of the process to flush its TLB: for a fleet's thousands of segments of a few KiB, more
/// than the copy. A large file is mapped so that the pages behind the reader can be released
/// (``discard(_:)``): scanning a journal of any length keeps a bounded resident set.
final class PosixFileContents: FileContents {
    /// Files up to this many bytes are read into memory; larger ones are mapped.
    static let wholeReadLimit = 256 * 1024

    // Set in init and read-only after; released only in deinit, when no other reference (and
    // so no concurrent reader) can exist.
    nonisolated(unsafe) private let base: UnsafeRawPointer?
    let count: Int
    /// Whether the bytes are a mapping (else memory allocated here).
    let isMapped: Bool

    init(path: String) throws {
        // A journal is read from the files in its directory, never through a symbolic link to
        // somewhere else (O_NOFOLLOW), and only when they are regular files.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw JournalError.notAJournal(path: path, reason: "a symbolic link, which is never followed") }
            throw JournalError.io(path: path, operation: "open", code: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw JournalError.io(path: path, operation: "fstat", code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw JournalError.notAJournal(path: path, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        isMapped = size > Self.wholeReadLimit
        guard size > 0 else {
            (base, count) = (nil, 0)
            return
        }
        if isMapped {
            let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
            guard let mapping, mapping != MAP_FAILED else {
                throw JournalError.io(path: path, operation: "mmap", code: errno)
            }
            madvise(mapping, size, MADV_SEQUENTIAL)
            (base, count) = (UnsafeRawPointer(mapping), size)
        } else {
            let read = try Self.read(descriptor, size: size, path: path)
            (base, count) = (UnsafeRawPointer(read.memory), read.count)
        }
    }

    /// The first `size` bytes of the open file `descriptor`, fewer if it is shorter by now.
    private static func read(_ descriptor: Int32, size: Int, path: String) throws -> (memory: UnsafeMutableRawPointer, count: Int) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var count = 0
        while count < size {
            let got = pread(descriptor, memory + count, size - count, off_t(count))
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                let code = errno
                memory.deallocate()
                throw JournalError.io(path: path, operation: "read", code: code)
            }
            if got == 0 { break }
            count += got
        }
        return (memory, count)
    }

    deinit {
        guard let base else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Releases the pages of a mapped file in `range`; a file read into memory is freed whole.
    func discard(_ range: Range<Int>) {
        guard isMapped, let base else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + pageSize - 1) / pageSize * pageSize
        let end = min(range.upperBound, count) / pageSize * pageSize
        if end > start { madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED) }
    }
}
