#if canImport(Glibc)
import Glibc
#endif

/// Memory a finished pass freed, handed back to the system. An allocator keeps freed blocks for
/// reuse (glibc in the arena of the thread that freed them, jemalloc, `replay`'s on Linux, as
/// dirty pages it purges over time), so a server that built one long journal's page would
/// otherwise stay near the pass's peak for a while. Elsewhere a no-op: Darwin's allocator
/// returns freed pages by itself.
enum FreedMemory {
    static func giveBack() {
        #if canImport(Glibc)
        // Both are looked up by name: neither is in the Glibc module, and either may be absent.
        // jemalloc's `mallctl("arena.<all>.purge")` (4096 names every arena)...
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") {
            typealias Control = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                                                UnsafeMutableRawPointer?, Int) -> Int32
            _ = unsafeBitCast(symbol, to: Control.self)("arena.4096.purge", nil, nil, nil, 0)
        }
        // ...and glibc's `malloc_trim`, for what its own arenas hold.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }
}
