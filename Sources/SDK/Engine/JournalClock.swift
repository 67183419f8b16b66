import Journal
import SDKCore

/// The journal's time, read off an ``SDKClock``'s monotonic clock: it never jumps or goes back,
/// and carries on across relaunches (docs/ARCHITECTURE.md, "Two clocks").
///
/// Within a process it is the time at the anchor plus the monotonic time since. A relaunch in
/// the same boot carries on from the last engine start's anchor exactly; after a reboot (or
/// where the boot is unknown) it carries on from the wall clock, read through the last known
/// offset, and never from before the journal's last record. Timers are armed on the monotonic
/// clock through the same mapping. Engine thread only.
struct JournalClock {
    /// The monotonic clock (µs) and the journal's time at the anchor.
    private var anchorMonotonic: Int64
    private var anchorTime: JournalTime

    /// The clock of an engine over `restored`, at `reading`.
    init(restored: SDKState, reading: ClockReading) {
        let monotonic = MonotonicReading(microseconds: reading.monotonicMicroseconds, boot: reading.boot)
        let carried: Int64 = if let anchor = restored.clockAnchor, anchor.monotonic.sameBoot(as: monotonic) {
            anchor.time.microsecondsSince1970 &+ (monotonic.microseconds &- anchor.monotonic.microseconds)
        } else {
            reading.wall.microsecondsSince1970 &- restored.clockOffsetMicroseconds
        }
        anchorMonotonic = reading.monotonicMicroseconds
        anchorTime = JournalTime(microsecondsSince1970: max(carried, restored.time.microsecondsSince1970))
    }

    /// The journal's time at `reading`.
    func time(at reading: ClockReading) -> JournalTime {
        anchorTime.advanced(byMicroseconds: max(0, reading.monotonicMicroseconds &- anchorMonotonic))
    }

    /// The monotonic reading (µs) at which the journal's time is `time`: where a timer due then
    /// is armed.
    func monotonicMicroseconds(at time: JournalTime) -> Int64 {
        anchorMonotonic &+ (time.microsecondsSince1970 &- anchorTime.microsecondsSince1970)
    }

    /// How far (µs) `reading`'s wall clock jumped: its distance from the journal's time `time`
    /// plus `offset`, the last one journaled (``SDKState/clockOffsetMicroseconds``), when that is
    /// over the tolerance; nil otherwise.
    func jump(in reading: ClockReading, at time: JournalTime, offset: Int64) -> Int64? {
        let jump = reading.wall.microsecondsSince1970 &- (time.microsecondsSince1970 &+ offset)
        return jump.magnitude > EngineBounds.clockJumpToleranceMicroseconds.magnitude ? jump : nil
    }
}
