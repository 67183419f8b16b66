/// What running one story gave: its failures (empty when every check passed) and figures.
package struct StoryOutcome: Sendable {
    package var seed: UInt64
    package var failures: [SimulationFailure]
    /// FNV-1a over the final journal's files (names and bytes, in name order): equal digests
    /// mean byte-identical journals.
    package var journalDigest: UInt64
    package var steps: Int
    package var launches: Int
    package var records: Int
    package var requestsReceived: Int
    /// Allowed outcomes and known design issues met, counted by explanation.
    var explained: [String: Int] = [:]

    package var passed: Bool { failures.isEmpty }
    /// The check of the first failure (what the shrinker keeps failing).
    package var firstCheck: SimulationCheck? { failures.first?.check }
}
