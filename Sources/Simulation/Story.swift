/// A simulated story: the world's fault profile and the steps the app takes, all from one seed.
/// ``StoryShrinker`` makes smaller stories by dropping steps; the profile stays.
package struct Story: Sendable, Hashable {
    var seed: UInt64
    package var profile: FaultProfile
    package var steps: [StoryStep]
}
