/// One failed check of a story, in words.
struct SimulationFailure: Sendable, Hashable {
    var check: SimulationCheck
    var message: String
}
