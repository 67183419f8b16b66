import SDK

/// How the story hears back from a call (`CallCompletion`): the outcome, or for a switch its
/// result, and optionally a call the app makes from inside the completion.
struct SimulatedCompletion {
    var isSwitch: Bool
    /// The call the app makes from the completion (a switch callback re-identifying the user).
    var reaction: PublicCall?
}
