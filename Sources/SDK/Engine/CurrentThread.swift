#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The calling thread's identity as a plain number, equal for the same live thread and
/// different for two live threads (`pthread_equal` compares exactly this): an integer on Linux,
/// a pointer on Apple platforms, so a value of a `Sendable` state on both.
enum CurrentThread {
    static var id: UInt64 {
        #if canImport(Darwin)
        UInt64(UInt(bitPattern: pthread_self()))
        #else
        UInt64(pthread_self())
        #endif
    }
}
