import Dispatch
import Foundation
import Journal

/// The SDK's only source of time: two clocks read together. The journal's time, every age,
/// backoff, bound and timer run on the monotonic one; the wall clock only says what people's
/// clocks read, and a jump of it is journaled, never obeyed (docs/ARCHITECTURE.md, "Two clocks").
/// Injected, so tests run on a `ManualClock` (SDKTesting) and a simulator on a virtual one.
///
/// What implementers must guarantee: ``read()`` is cheap (the engine reads it once per input)
/// and safe from any thread; the monotonic reading never goes back and never jumps within one
/// boot; ``schedule(atMonotonicMicroseconds:_:)`` runs its action once, on any thread, once the
/// monotonic clock reached the due time (at once if it already has), never before.
public protocol SDKClock: Sendable {
    /// Both clocks, read at one instant.
    func read() -> ClockReading
    /// Calls `action` (on any thread) once the monotonic clock reaches `due` (microseconds, as
    /// ``ClockReading/monotonicMicroseconds``); at once if it already has.
    func schedule(atMonotonicMicroseconds due: Int64, _ action: @escaping @Sendable () -> Void)
}

/// One reading of an ``SDKClock``.
public struct ClockReading: Sendable, Hashable {
    /// What the device's clock says: set by the user or the network, it may jump either way.
    public var wall: JournalTime
    /// Microseconds since an origin fixed for the boot: never jumps, never goes back, and keeps
    /// counting while the device sleeps.
    public var monotonicMicroseconds: Int64
    /// Tells boots apart: the same for every reading of one boot, another after a reboot; nil
    /// where the platform does not say (a relaunch then takes the time since the last run from
    /// the wall clock, never less than nothing).
    public var boot: UInt64?

    public init(wall: JournalTime, monotonicMicroseconds: Int64, boot: UInt64?) {
        self.wall = wall
        self.monotonicMicroseconds = monotonicMicroseconds
        self.boot = boot
    }
}

/// The device's clocks: `Date()` for the wall clock; for the monotonic one, the time since boot
/// including sleep (`CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC` on Apple platforms, which
/// counts sleep there) and the kernel's boot id; timers on a Dispatch queue.
public struct SystemClock: SDKClock {
    private let queue = DispatchQueue(label: "engagement-sdk.timers")
    private let boot: UInt64?

    public init() {
        boot = Self.bootIdentity()
    }

    public func read() -> ClockReading {
        ClockReading(wall: Self.wallClock(), monotonicMicroseconds: Self.monotonicMicroseconds(), boot: boot)
    }

    /// The wall clock in whole microseconds (rounded down, as `JournalTime(Date())` gives it),
    /// read from `CLOCK_REALTIME` directly: read once per call, and `Date()` would convert the
    /// same reading to a `Double` and back.
    private static func wallClock() -> JournalTime {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return JournalTime(microsecondsSince1970: Int64(now.tv_sec) &* 1_000_000 &+ Int64(now.tv_nsec) / 1_000)
    }

    public func schedule(atMonotonicMicroseconds due: Int64, _ action: @escaping @Sendable () -> Void) {
        let delay = max(0, due &- Self.monotonicMicroseconds())
        queue.asyncAfter(deadline: .now() + .microseconds(Int(clamping: delay)), execute: action)
    }

    private static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_BOOTTIME, &now)
        #else
        clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        return Int64(now.tv_sec) &* 1_000_000 &+ Int64(now.tv_nsec) / 1_000
    }

    /// A number for the current boot: a hash of the kernel's boot id (Linux's
    /// `/proc/sys/kernel/random/boot_id`, Apple's `kern.bootsessionuuid`), nil if unreadable.
    private static func bootIdentity() -> UInt64? {
        #if os(Linux)
        let text: String
        do {
            text = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        } catch {
            return nil   // Unknown boot: a relaunch then measures the time since the last run by the wall clock.
        }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        #else
        var size = 0
        guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [CChar](repeating: 0, count: size)
        guard sysctlbyname("kern.bootsessionuuid", &bytes, &size, nil, 0) == 0 else { return nil }
        let id = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
        guard !id.isEmpty else { return nil }
        // FNV-1a: stable across processes, which Swift's seeded `Hasher` is not.
        return id.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
