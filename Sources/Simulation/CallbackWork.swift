import SDK

/// A completion waiting on the simulated callback queue, and the landing it belongs to.
struct CallbackWork {
    var landing: SwitchID?
    var body: @Sendable () -> Void
}
