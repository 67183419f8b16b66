extension SDKState {
    /// A received call as `decide` journals it in this state: the call `decide` returns first
    /// (its input, in this form) and then decides from.
    ///
    /// - While the user declined, a call other than the control calls loses its personal and
    ///   free-text values (``PublicCall/withoutPersonalValues``).
    /// - A call with an argument over its limit (``CallLimits``), checked before anything else,
    ///   becomes ``PublicCall/oversized(_:reason:)``: its name and why, never its arguments.
    /// - Any other call is journaled as it was made (one with another problem is rejected, but
    ///   it is within every limit, so its record is bounded).
    ///
    /// A call in its journaled form is its own journaled form (a fixed point): an oversized call
    /// stays as it is, whatever its reason says and whether or not the user declined, and values
    /// emptied once stay empty. So a journal's received calls come back unchanged from today's
    /// `decide` on the state folded before them, and `replay recheck` reports a received call that
    /// it would journal otherwise (a journal written under other limits) as a difference.
    package func journaledForm(of call: PublicCall) -> PublicCall {
        if declines(call) { return Self.declinedForm(of: call) }
        var form = call
        Self.replaceIfOverLimit(&form, CallValidation.problem(in: call))
        return form
    }

    /// Whether `call` is made while the user declined, and is not a control call.
    func declines(_ call: PublicCall) -> Bool {
        consentDeclined && call.name.switchBehavior != .control
    }

    /// A call made while the user declined, as journaled: without its personal and free-text
    /// values (``PublicCall/withoutPersonalValues``), or ``PublicCall/oversized(_:reason:)`` if
    /// even so it is over a limit. An oversized call stays as it is.
    static func declinedForm(of call: PublicCall) -> PublicCall {
        if call.isOversized { return call }
        var form = call.withoutPersonalValues
        replaceIfOverLimit(&form, CallValidation.problem(in: form))
        return form
    }

    /// Makes `call`, whose arguments have `problem`, ``PublicCall/oversized(_:reason:)`` when the
    /// problem is over a limit (a call oversized already stays as it is).
    @inline(__always)
    static func replaceIfOverLimit(_ call: inout PublicCall, _ problem: CallProblem?) {
        guard let problem, problem.isOverLimit, !call.isOversized else { return }
        call = .oversized(call.name, reason: problem.reason)
    }
}
