import SDKCore

/// The calls of an ``EngagementSDK`` in the form that awaits their outcome: ``EngagementSDK/outcome``.
///
/// `await sdk.outcome.track("cart_viewed")` makes the same call as `sdk.track("cart_viewed")` and
/// returns the value that call's completion would receive. Each method posts its call before it
/// suspends (the call keeps its place among the calls made before and after it by the awaiting
/// code), then waits until the outcome is decided and journaled. What that takes depends on the
/// call, and each method says it: some return as soon as the call is processed, a request waits
/// for the project's answer (minutes or hours while offline), a switch until it lands.
///
/// Await them where the outcome is needed before going on, never on a path the user waits on:
/// the calls on ``EngagementSDK`` itself return at once in any context. Cancelling the awaiting
/// task neither cancels the call nor ends the wait. Made after ``EngagementSDK/shutdown()``, a call
/// returns at once, with the outcome the completion form reports then.
public struct AwaitedCalls: Sendable {
    /// The SDK the calls are made on.
    let sdk: EngagementSDK
}

extension EngagementSDK {
    /// The calls in the form that awaits their outcome: `await sdk.outcome.track("cart_viewed")`
    /// returns the `CallOutcome` the completion of `sdk.track("cart_viewed")` would receive.
    ///
    /// Each ``AwaitedCalls`` method says what it waits for (a request waits for the project's
    /// answer: minutes or hours while offline). The calls on the SDK itself never wait: use them
    /// wherever the outcome is not needed before going on.
    public var outcome: AwaitedCalls { AwaitedCalls(sdk: self) }
}
