/// One failed check of a story, in words.
package struct SimulationFailure: Sendable, Hashable {
    package var check: SimulationCheck
    package var message: String
}
