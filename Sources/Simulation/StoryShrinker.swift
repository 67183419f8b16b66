/// Makes a failing story smaller: drops chunks of steps (halves, then quarters, down to single
/// steps) while the story still fails the same check, until no single step can go.
///
/// Deterministic: every candidate is a story run from the same seed and profile.
package struct StoryShrinker {
    /// The most candidate stories one shrink runs.
    var budget = 1_500

    package init() {}

    /// The smallest story found that still fails `check`, and the outcome of running it.
    package func shrink(_ story: Story, failing check: SimulationCheck) -> (story: Story, outcome: StoryOutcome?) {
        var best = story
        var bestOutcome: StoryOutcome?
        var runs = 0
        var chunk = max(1, story.steps.count / 2)
        while runs < budget {
            var start = 0
            var removedAny = false
            while start < best.steps.count && runs < budget {
                var candidate = best
                candidate.steps.removeSubrange(start..<min(start + chunk, best.steps.count))
                runs += 1
                let outcome = StoryRunner.run(candidate)
                if outcome.failures.contains(where: { $0.check == check }) {
                    best = candidate
                    bestOutcome = outcome
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 {
                if !removedAny { break }
            } else {
                chunk /= 2
            }
        }
        return (best, bestOutcome)
    }
}
