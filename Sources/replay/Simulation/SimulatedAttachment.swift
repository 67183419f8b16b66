/// `EngineAttachment` for the simulation: the project of `initialize`/`switchProject` (its key
/// and whether it has an auth provider), the call's completion, a fresh token and the token
/// epoch it was asked for under.
enum SimulatedAttachment {
    case none
    case completion(SimulatedCompletion)
    case project(SimulatedProject, SimulatedCompletion)
    case token(String, epoch: UInt64)
}
