/// A completion held until its input was handled: a body, or a call's completion with what it
/// reports (a value, with no closure allocated for it).
enum HeldCallback: Sendable {
    case body(@Sendable () -> Void)
    case delivery(CompletionDelivery)
    /// What is left in a group's slot once its callback was taken out to run.
    case taken

    /// Runs the callback (on the callback queue); a taken slot does nothing.
    func run() {
        switch self {
        case .body(let body): body()
        case .delivery(let delivery): delivery.run()
        case .taken: break
        }
    }
}

/// An input's held callbacks, handed to the callback queue as one work item, run in order.
///
/// `@unchecked Sendable`: the engine thread makes it and never touches it again once the work
/// item holding it is queued; that work item, which runs once, is its only other user.
final class HeldCallbackGroup: @unchecked Sendable { // made on the engine thread, then used only by the one work item that runs it
    private var callbacks: [HeldCallback]

    init(_ callbacks: [HeldCallback]) {
        self.callbacks = callbacks
    }

    /// Runs every callback in order, each taken out of its slot first: run in place (borrowed
    /// from the array, across a call into the app), each would be copied (its completion and
    /// outcome retained) and the copy destroyed after it ran.
    func runAll() {
        callbacks.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices {
                var callback = HeldCallback.taken
                swap(&callback, &slots[index])
                callback.run()
            }
        }
    }
}
