/// A reading of a device's monotonic clock: microseconds since an origin fixed for one boot,
/// which never jumps or goes back, and the boot it counts from.
///
/// The journal's time runs on it (docs/ARCHITECTURE.md, "Two clocks"): two readings of the same
/// boot differ by exactly the time that passed between them, whatever the wall clock did.
package struct MonotonicReading: Sendable, Hashable {
    /// Microseconds since the boot's origin.
    public var microseconds: Int64
    /// Tells boots apart: equal for readings of one boot, different across a reboot (nil where
    /// the platform does not say, and then no two readings are taken for the same boot).
    public var boot: UInt64?

    public init(microseconds: Int64, boot: UInt64?) {
        self.microseconds = microseconds
        self.boot = boot
    }

    /// Whether `later` counts from the same boot as this reading and not before it: the time
    /// between the two is then exactly `later.microseconds - microseconds`.
    public func sameBoot(as later: MonotonicReading) -> Bool {
        boot != nil && boot == later.boot && later.microseconds >= microseconds
    }
}
