/// A failure the simulated world injects (a module's, the auth provider's); its description is
/// what the engine records.
struct SimulatedFailure: Error, CustomStringConvertible {
    var description: String
}
