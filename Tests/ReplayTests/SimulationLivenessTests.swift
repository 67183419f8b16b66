import Journal
import SDK
import Testing
@testable import Simulation

/// The simulator's liveness and privacy checks have teeth: each fails on a defect planted in
/// the engine's environment and passes on the real code; the world's new occurrences (wall-clock
/// jumps, an auth server that mints for the signed-in user only, hourly tokens, long-lived
/// processes, storms of disables, erasure and decline while requests are on the wire, invalid
/// and oversized arguments at once) pass every check on fixed seeds.
@Suite("simulation liveness", .timeLimit(.minutes(3)))
struct SimulationLivenessTests {
    static func call(_ call: PublicCall, keepsUp: Bool = true) -> StoryStep {
        .call(caller: 1, .sdk(call), engineKeepsUp: keepsUp)
    }

    static func describe(_ outcome: StoryOutcome) -> Comment {
        Comment(rawValue: "seed \(outcome.seed): " + outcome.failures.map { "[\($0.check.rawValue)] \($0.message)" }.joined(separator: "\n"))
    }

    /// On project A, a user tracks twice, a minute apart.
    static let tracks = Story(seed: 1, profile: FaultProfile(), steps: [
        .call(caller: 1, .initialize(project: 0), engineKeepsUp: true),
        call(.setEmail("user1@sim.test")),
        call(.track(event: "viewed", dataFields: nil)),
        .wait(milliseconds: 60_000),
        call(.track(event: "liked", dataFields: nil)),
        .wait(milliseconds: 1_000),
    ])

    @Test("a task whose answer never reaches the engine fails liveness; the real engine delivers it within the bound")
    func lostAnswerFailsLiveness() {
        let real = StoryRunner.run(Self.tracks)
        #expect(real.passed, Self.describe(real))
        let planted = StoryRunner.run(Self.tracks, plantedDefect: .answersLost(path: DeliveryTask.trackPath))
        #expect(planted.failures.contains { $0.check == .liveness && $0.message.contains("never ended after the calm end") },
                Self.describe(planted))
    }

    /// A track on the wire, its answer lost on a slow network, when the app erases (or the user
    /// declines); a minute later the planted transport sends the request again.
    static func onTheWire(_ then: [StoryStep]) -> Story {
        Story(seed: 2, profile: FaultProfile(), steps: [
            .call(caller: 1, .initialize(project: 0), engineKeepsUp: true),
            call(.setEmail("user1@sim.test")),
            .lossyNetwork(true),
            .slowNetwork(milliseconds: 3_000),
            call(.track(event: "viewed", dataFields: nil)),
            .wait(milliseconds: 1),
        ] + then + [.wait(milliseconds: 120_000), .lossyNetwork(false), .slowNetwork(milliseconds: 0)])
    }

    @Test("a request that leaves again after an erasure settled fails privacy; the real engine never sends it again")
    func resentAfterErasureFailsPrivacy() {
        let story = Self.onTheWire([Self.call(.eraseLocalData)])
        let real = StoryRunner.run(story)
        #expect(real.passed, Self.describe(real))
        let planted = StoryRunner.run(story, plantedDefect: .repeatsRequests)
        #expect(planted.failures.contains { $0.check == .privacy && $0.message.contains("after an erasure settled over it") },
                Self.describe(planted))
    }

    @Test("a request that leaves while the user declined fails privacy; the real engine sends nothing then")
    func sentWhileDeclinedFailsPrivacy() {
        let story = Self.onTheWire([Self.call(.setConsent(granted: false)), Self.call(.track(event: "liked", dataFields: nil))])
        let real = StoryRunner.run(story)
        #expect(real.passed, Self.describe(real))
        let planted = StoryRunner.run(story, plantedDefect: .repeatsRequests)
        #expect(planted.failures.contains { $0.check == .privacy && $0.message.contains("while the user had declined") },
                Self.describe(planted))
    }

    @Test("a wall-clock jump of eight days with events queued offline expires none of them")
    func wallClockJumpExpiresNothing() {
        let story = Story(seed: 3, profile: FaultProfile(), steps: [
            .call(caller: 1, .initialize(project: 0), engineKeepsUp: true),
            Self.call(.setEmail("user1@sim.test")),
            .offline,
            Self.call(.track(event: "viewed", dataFields: nil)),
            .jumpWallClock(milliseconds: 8 * 86_400_000),
            .wait(milliseconds: 60_000),
            .online,
            .networkReachable,
            .jumpWallClock(milliseconds: -9 * 86_400_000),
            Self.call(.track(event: "liked", dataFields: nil)),
            .wait(milliseconds: 1_000),
        ])
        let outcome = StoryRunner.run(story)
        #expect(outcome.passed, Self.describe(outcome))
    }

    /// The first seed (10 steps) that finds each of issue 42's and 43's fixes reverted
    /// (`scripts/mutation-seeds.sh`, docs/RELIABILITY.md): on the real code each passes.
    @Test("the seeds that find each reverted liveness or privacy fix pass on the real code",
          arguments: [54, 377, 464, 1031, 265, 355, 260] as [UInt64])
    func mutationSeedsPass(seed: UInt64) {
        let outcome = StoryRunner.run(StoryGenerator.story(seed: seed, length: 10), checksEveryInput: false)
        #expect(outcome.passed, Self.describe(outcome))
    }

    /// The first seeds (10 steps) whose story holds a step `matches` accepts.
    static func seeds(count: Int, where matches: (StoryStep) -> Bool) -> [UInt64] {
        var found: [UInt64] = []
        var seed: UInt64 = 1
        while found.count < count && seed < 50_000 {
            if StoryGenerator.story(seed: seed, length: 10).steps.contains(where: matches) { found.append(seed) }
            seed += 1
        }
        return found
    }

    @Test("the world's new occurrences are drawn by the generator and pass every check")
    func newOccurrencesPass() {
        let kinds: [(String, (StoryStep) -> Bool)] = [
            ("wall-clock jump", { if case .jumpWallClock = $0 { true } else { false } }),
            ("auth server for the signed-in user", { if case .authServer(let users?, _) = $0 { !users.isEmpty } else { false } }),
            ("hourly tokens", { if case .tokenLifetime(let lifetime) = $0 { lifetime > 0 } else { false } }),
            ("answers lost on the wire", { if case .lossyNetwork(true) = $0 { true } else { false } }),
            ("a storm of disables", { if case .call(_, .sdk(.setEmail(let email?)), _) = $0 { email.hasPrefix("storm") } else { false } }),
        ]
        for (kind, matches) in kinds {
            let seeds = Self.seeds(count: 2, where: matches)
            #expect(seeds.count == 2, "the generator draws \(kind) in the first 50,000 seeds")
            for seed in seeds {
                let outcome = StoryRunner.run(StoryGenerator.story(seed: seed, length: 10), checksEveryInput: false)
                #expect(outcome.passed, "\(kind): \(Self.describe(outcome))")
            }
        }
    }
}
