import Dispatch
import Foundation
import Journal

/// The SDK's only source of time: the engine stamps inputs with it and schedules timers on it.
/// Injected, so tests run on a `ManualClock` (SDKTesting) and a simulator on a virtual one.
public protocol SDKClock: Sendable {
    /// The current time.
    func now() -> JournalTime
    /// Calls `action` (on any thread) once the clock reaches `due`; at once if it already has.
    func schedule(at due: JournalTime, _ action: @escaping @Sendable () -> Void)
}

/// Wall-clock time, with timers on a Dispatch queue.
public struct SystemClock: SDKClock {
    private let queue = DispatchQueue(label: "engagement-sdk.timers")

    public init() {}

    public func now() -> JournalTime {
        JournalTime(Date())
    }

    public func schedule(at due: JournalTime, _ action: @escaping @Sendable () -> Void) {
        let delay = max(0, due.microsecondsSince1970 - now().microsecondsSince1970)
        queue.asyncAfter(deadline: .now() + .microseconds(Int(clamping: delay)), execute: action)
    }
}
