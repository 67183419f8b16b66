import SDKCore

/// A call's completion together with what it is to report: the call's outcome, and what the
/// completion's form reports besides it (a switch's result, a universal link's destination).
///
/// A value, so an environment can hold an input's completions without a closure (and its
/// allocation) per completion (``EngineEnvironment/runCompletion(_:inbox:)``).
package struct CompletionDelivery: Sendable {
    let completion: CallCompletion
    let outcome: CallOutcome
    let switchResult: SwitchResult
    let linkDestination: String?

    /// Calls the completion with what it reports (on the callback queue).
    func run() {
        switch completion {
        case .outcome(let body): body(outcome)
        case .switchResult(let body): body(switchResult)
        case .link(let body): body(UniversalLinkResult(outcome: outcome, destination: linkDestination))
        }
    }
}
