#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Locking

/// An append-only file descriptor. Closed when the last reference goes away, so a group-commit
/// thread that still holds it can finish its sync after the writer moved to a new segment.
final class PosixWritableFile: WritableFile {
    private let descriptor: Int32
    private let path: String
    private let length: Locked<Int>

    init(descriptor: Int32, path: String, size: Int) {
        self.descriptor = descriptor
        self.path = path
        self.length = Locked(size)
    }

    deinit {
        close(descriptor)
    }

    var size: Int { length.withLock { $0 } }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard var cursor = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw JournalError.io(path: path, operation: "write", code: errno)
            }
            cursor += written
            remaining -= written
        }
        length.withLock { $0 += bytes.count }
    }

    func synchronize() throws {
        if let code = FileSync.data(of: descriptor) {
            throw JournalError.io(path: path, operation: FileSync.dataCall, code: code)
        }
    }

    func truncate(to newLength: Int) throws {
        guard ftruncate(descriptor, off_t(newLength)) == 0 else {
            throw JournalError.io(path: path, operation: "ftruncate", code: errno)
        }
        length.withLock { $0 = newLength }
    }
}
