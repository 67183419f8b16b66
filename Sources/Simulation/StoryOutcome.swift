/// What running one story gave: its failures (empty when every check passed) and figures.
struct StoryOutcome: Sendable {
    var seed: UInt64
    var failures: [SimulationFailure]
    /// FNV-1a over the final journal's files (names and bytes, in name order): equal digests
    /// mean byte-identical journals.
    var journalDigest: UInt64
    var steps: Int
    var launches: Int
    var records: Int
    var requestsReceived: Int
    /// Allowed outcomes and known design issues met, counted by explanation.
    var explained: [String: Int] = [:]

    var passed: Bool { failures.isEmpty }
    /// The check of the first failure (what the shrinker keeps failing).
    var firstCheck: SimulationCheck? { failures.first?.check }
}
