
/// How the results of effects come back to the ``EngineShell``, from any thread: the engine
/// thread's mailbox, or the simulation's process mailbox.
///
/// `effectBegan` and `effectEnded` bracket each effect that runs outside the core (a request on
/// the wire, an auth request, a flush, an awaited hook, a completion on the callback queue), so
/// the host can tell when nothing is in flight; ``finish(_:)`` posts an effect's result and ends it.
package struct EngineInbox: Sendable {
    /// Hands a stimulus to the core, behind what is already waiting.
    package let post: @Sendable (EngineStimulus) -> Void
    /// An effect started outside the core.
    package let effectBegan: @Sendable () -> Void
    /// An effect that started ended (after its result, if any, was posted).
    package let effectEnded: @Sendable () -> Void

    package init(post: @escaping @Sendable (EngineStimulus) -> Void,
                 effectBegan: @escaping @Sendable () -> Void = {}, effectEnded: @escaping @Sendable () -> Void = {}) {
        self.post = post
        self.effectBegan = effectBegan
        self.effectEnded = effectEnded
    }

    /// Posts the result of an effect that ended.
    package func finish(_ stimulus: EngineStimulus) {
        post(stimulus)
        effectEnded()
    }
}
