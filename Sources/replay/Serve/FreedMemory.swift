#if canImport(Glibc)
import Glibc
#endif

/// Memory a finished pass freed, handed back to the system. glibc keeps the blocks a thread
/// freed in that thread's arena for reuse, so a server that built one long journal's page would
/// otherwise stay as large as the pass's peak for as long as it runs. Elsewhere a no-op: Darwin's
/// allocator returns freed pages by itself.
enum FreedMemory {
    static func giveBack() {
        #if canImport(Glibc)
        // `malloc_trim` is glibc's own (malloc.h, outside the Glibc module): looked up by name,
        // and skipped where the C library has none.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
