/// A simulated story: the world's fault profile and the steps the app takes, all from one seed.
/// ``StoryShrinker`` makes smaller stories by dropping steps; the profile stays.
struct Story: Sendable, Hashable {
    var seed: UInt64
    var profile: FaultProfile
    var steps: [StoryStep]
}
