import SDK

/// A completion on the simulated callback queue: the call, its outcome (or its switch's
/// result), and, for a landing's completions, the count the engine waits on
/// (`EngineLoop.complete`).
struct CallbackWork {
    var call: CallID
    var outcome: CallOutcome
    var switchResult: SwitchResult
    var completion: SimulatedCompletion
    var landing: SimulatedLandingCallbacks?
}

/// `LandingCallbacks`, single-threaded: counts the completions a landing dispatched, and
/// reports once every one of them returned and the landing armed it.
final class SimulatedLandingCallbacks {
    private var running = 0
    private var armed = false
    private var reported = false
    private let report: () -> Void

    init(report: @escaping () -> Void) {
        self.report = report
    }

    func dispatched() { running += 1 }

    func finished() {
        running -= 1
        reportIfDone()
    }

    func arm() {
        armed = true
        reportIfDone()
    }

    private func reportIfDone() {
        guard armed, running == 0, !reported else { return }
        reported = true
        report()
    }
}
