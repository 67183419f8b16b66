#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file read whole into memory (``PosixStorage/contents(of:)`` reads a file this way up
/// to ``PosixStorage/wholeReadLimit``, and maps a larger one): a mapping costs two more system
/// calls, and its unmapping interrupts every other core of the process to flush its TLB, which
/// for a fleet's thousands of small segments cost more than the copy.
final class LoadedFile: FileContents {
    // Written once in init and freed only in deinit, when no other reference (and so no
    // concurrent reader) can exist: read-only in between.
    nonisolated(unsafe) private let storage: UnsafeMutableRawPointer?
    let count: Int

    /// Reads the first `size` bytes of the open file `descriptor` (fewer if it is shorter by now).
    init(descriptor: Int32, size: Int, path: String) throws {
        guard size > 0 else {
            storage = nil
            count = 0
            return
        }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var read = 0
        while read < size {
            let got = pread(descriptor, storage + read, size - read, off_t(read))
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                let code = errno
                storage.deallocate()
                throw JournalError.io(path: path, operation: "read", code: code)
            }
            if got == 0 { break }
            read += got
        }
        self.storage = storage
        count = read
    }

    deinit {
        storage?.deallocate()
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Nothing to release early: the copy is freed whole.
    func discard(_ range: Range<Int>) {}
}
