/// How a task ended: the ``CallOutcome`` of each call it carried, less the project (the task
/// names it). No task ends `applied`: an applied call sent nothing, so no task carried it.
///
/// It is the form every outcome is worded and written as JSON in, once: ``CallOutcome/parts``
/// tells a call's outcome as a task's outcome and the project it was delivered to, or as
/// applied; ``CallOutcome/init(_:project:)`` gives each carried call's.
package enum TaskOutcome: Sendable, Hashable {
    /// The project answered the request with `status` (2xx).
    case delivered(status: Int)
    /// The request will never succeed.
    case failed(CallFailure)
    /// The request was dropped on purpose before it could be delivered.
    case discarded(DiscardReason)
}
