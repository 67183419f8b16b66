import Locking

/// Counts the completions a switch landing dispatched to the callback queue, so the engine
/// hears "the landed switch's callbacks ran" only once every one of them has returned, on any
/// queue, serial or concurrent (a notice queued after them would run first on a concurrent one).
final class LandingCallbacks: Sendable {
    fileprivate struct Count {
        var running = 0
        var armed = false
        var reported = false
    }

    private let count = Locked(Count())
    private let report: @Sendable () -> Void

    /// `report` runs once, on the thread that finishes last (or the arming one).
    init(report: @escaping @Sendable () -> Void) {
        self.report = report
    }

    /// A completion is about to be dispatched.
    func dispatched() {
        count.withLock { $0.running += 1 }
    }

    /// A dispatched completion returned.
    func finished() {
        if count.withLock({ $0.finish() }) { report() }
    }

    /// Every completion of the landing was dispatched: the report comes once the last returns.
    func arm() {
        if count.withLock({ count -> Bool in
            count.armed = true
            return count.reportIfDone()
        }) { report() }
    }
}

extension LandingCallbacks.Count {
    mutating func finish() -> Bool {
        running -= 1
        return reportIfDone()
    }

    mutating func reportIfDone() -> Bool {
        guard armed, running == 0, !reported else { return false }
        reported = true
        return true
    }
}
