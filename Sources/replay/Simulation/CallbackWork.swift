import SDK

/// Work on the simulated callback queue, run one item at a time in order.
enum CallbackWork {
    /// A call's completion runs with its outcome (or its switch's result).
    case completion(CallID, CallOutcome, SwitchResult, SimulatedCompletion)
    /// Every completion of a landed switch ran: tell the engine (`callbacksDelivered`).
    case callbacksRan(SwitchID)
}
