#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory between two pages that may be neither read nor written: a decoder that reads or
/// writes one byte outside the region crashes the test process instead of passing unnoticed.
final class GuardedRegion {
    /// The region's first byte: right after the front guard page.
    let start: UnsafeMutableRawPointer
    /// The region's size, a whole number of pages: its end is the back guard page.
    let count: Int
    private let mapping: UnsafeMutableRawPointer
    private let mappingBytes: Int

    /// A region of at least `minimumCount` bytes.
    init(minimumCount: Int) {
        let page = Int(getpagesize())
        count = max(1, (minimumCount + page - 1) / page) * page
        mappingBytes = count + 2 * page
        let mapped = mmap(nil, mappingBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else { fatalError("mmap failed: errno \(errno)") }
        mapping = mapped
        precondition(mprotect(mapping, page, PROT_NONE) == 0 && mprotect(mapping + page + count, page, PROT_NONE) == 0)
        start = mapping + page
    }

    deinit {
        munmap(mapping, mappingBytes)
    }

    /// The region's end: the first byte of the back guard page.
    var end: UnsafeMutableRawPointer { start + count }

    /// `bytes` copied so that they end where the back guard page begins.
    func placeAtEnd(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
        precondition(bytes.count <= count)
        let base = end - bytes.count
        bytes.withUnsafeBytes { if let source = $0.baseAddress { base.copyMemory(from: source, byteCount: bytes.count) } }
        return UnsafeRawBufferPointer(start: base, count: bytes.count)
    }
}
