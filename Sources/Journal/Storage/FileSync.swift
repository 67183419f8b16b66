#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The calls that make a descriptor's writes reach the disk, chosen per platform: what each one
/// promises is in docs/RELIABILITY.md ("What a flush promises, per platform").
///
/// On Linux `fdatasync` and `fsync` return once the device acknowledged a cache flush. On Apple
/// platforms `fsync` only hands the data to the drive, whose cache may still lose it on power
/// loss: durability takes `fcntl(F_FULLFSYNC)`, and `fcntl(F_BARRIERFSYNC)` orders writes (those
/// before it reach the medium before those after it) without waiting for the flush. Where the file
/// system refuses either (some network and FAT volumes), the plain `fsync` is the best there is.
///
/// Each call retries when a signal interrupts it and returns nil on success, else the `errno`.
package enum FileSync {
    /// The name of ``data(of:)``'s call, for error messages.
    package static let dataCall = platformChoice(apple: "fcntl(F_FULLFSYNC)", linux: "fdatasync")
    /// The name of ``full(of:)``'s call, for error messages.
    package static let fullCall = platformChoice(apple: "fcntl(F_FULLFSYNC)", linux: "fsync")
    /// The name of ``ordered(of:)``'s call, for error messages.
    package static let orderedCall = platformChoice(apple: "fcntl(F_BARRIERFSYNC)", linux: "fsync")

    /// Makes the file's data, and the metadata needed to read it back (its length), durable: what
    /// the journal's flush promises.
    package static func data(of descriptor: Int32) -> Int32? {
        #if canImport(Darwin)
        appleSync(descriptor, command: F_FULLFSYNC)
        #else
        retrying { fdatasync(descriptor) }
        #endif
    }

    /// Makes the file's data and all its metadata durable; for a directory, its entries (files
    /// created, renamed or removed in it).
    package static func full(of descriptor: Int32) -> Int32? {
        #if canImport(Darwin)
        appleSync(descriptor, command: F_FULLFSYNC)
        #else
        retrying { fsync(descriptor) }
        #endif
    }

    /// Makes every write to the file so far reach the disk before any later write (a rename after
    /// it, say), without waiting for them to be durable where the platform can tell the two apart
    /// (Apple's `F_BARRIERFSYNC`); on Linux it is ``full(of:)``, which orders by being durable.
    package static func ordered(of descriptor: Int32) -> Int32? {
        #if canImport(Darwin)
        appleSync(descriptor, command: F_BARRIERFSYNC)
        #else
        retrying { fsync(descriptor) }
        #endif
    }

    #if canImport(Darwin)
    /// `fcntl(command)`, falling back to `fsync` when the file system does not support it
    /// (`ENOTSUP`, `EINVAL`: it promises less there, and nothing stronger is available).
    private static func appleSync(_ descriptor: Int32, command: Int32) -> Int32? {
        guard let code = retrying({ fcntl(descriptor, command) }) else { return nil }
        guard code == ENOTSUP || code == EINVAL else { return code }
        return retrying { fsync(descriptor) }
    }
    #endif

    private static func retrying(_ call: () -> Int32) -> Int32? {
        while call() == -1 {
            if errno == EINTR { continue }
            return errno
        }
        return nil
    }

    private static func platformChoice(apple: String, linux: String) -> String {
        #if canImport(Darwin)
        apple
        #else
        linux
        #endif
    }
}
