#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped read-only. Pages behind the reader can be released with ``discard(before:)``,
/// so scanning a journal of any length keeps a bounded resident set.
final class MappedFile: FileContents {
    // The mapping is immutable and read-only for the object's whole life; it is unmapped only
    // in deinit, when no other reference (and so no concurrent reader) can exist.
    nonisolated(unsafe) private let base: UnsafeRawPointer?
    let count: Int

    /// Maps the first `size` bytes of the open file `descriptor` (at `path`).
    init(descriptor: Int32, size: Int, path: String) throws {
        count = size
        guard count > 0 else {
            base = nil
            return
        }
        let mapping = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else {
            throw JournalError.io(path: path, operation: "mmap", code: errno)
        }
        madvise(mapping, count, MADV_SEQUENTIAL)
        base = UnsafeRawPointer(mapping)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func discard(_ range: Range<Int>) {
        guard let base else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + pageSize - 1) / pageSize * pageSize
        let end = min(range.upperBound, count) / pageSize * pageSize
        if end > start { madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED) }
    }
}
