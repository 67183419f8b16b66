
/// Counts the completions a switch landing dispatched to the callback queue, so the engine
/// hears "the landed switch's callbacks ran" only once every one of them has returned, on any
/// queue, serial or concurrent (a notice queued after them would run first on a concurrent one).
/// Kept by the ``EngineShell``, on its thread; each return comes back as an event.
struct LandingCallbacks {
    /// Completions dispatched and not returned yet.
    private(set) var running = 0
    /// Whether every completion of the landing was dispatched.
    private(set) var armed = false

    /// A completion is about to be dispatched.
    mutating func dispatched() { running += 1 }

    /// A dispatched completion returned; true when that ends the landing's callbacks.
    mutating func finished() -> Bool {
        running -= 1
        return isDone
    }

    /// Every completion of the landing was dispatched; true when none is still running.
    mutating func arm() -> Bool {
        armed = true
        return isDone
    }

    private var isDone: Bool { armed && running == 0 }
}
