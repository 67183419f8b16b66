import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// Two clocks: ages, backoff, bounds and timers run on the monotonic clock; the wall clock only
/// says what people's clocks read. A user setting the date, either way, expires nothing early,
/// deletes no history and stalls no timer; the jump is journaled as `clockJumped`.
@Suite("Field: the wall clock jumps", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct ClockJumpTests {
    /// A network that is off (the relaunched harness has its own, on).
    private static func offlineNetwork() -> SwitchableNetwork {
        let network = SwitchableNetwork(base: PatientTransport(base: URLSessionTransport()))
        network.goOffline()
        return network
    }

    private static func jumps(in facts: [Fact]) -> [(wall: JournalTime, jump: Int64)] {
        facts.compactMap { if case .clockJumped(let wall, let jump) = $0 { (wall, jump) } else { nil } }
    }

    @Test("the date set 8 days ahead while offline: nothing queued expires, everything is delivered once the network is back, and the jump is journaled")
    func forwardJumpExpiresNothing() async throws {
        let (harness, network) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let outcomes = (0..<3).map { _ in Eventually<CallOutcome>() }
        for (index, outcome) in outcomes.enumerated() { sdk.track("offline-\(index)", completion: outcome.completion) }
        await OfflineDeliveryTests.pass(.seconds(60), in: 6, harness)
        harness.clock.jumpWallClock(by: .seconds(8 * 86_400))
        await OfflineDeliveryTests.pass(.seconds(60), in: 6, harness)
        for outcome in outcomes { #expect(outcome.current == nil, "nothing ended: \(String(describing: outcome.current))") }
        network.goOnline()
        sdk.networkBecameReachable()
        await sdk.settle()
        for outcome in outcomes { #expect(outcome.current == .delivered(project: harness.us.fingerprint, status: 200)) }
        #expect(harness.eventNames(receivedBy: "us") == ["offline-0", "offline-1", "offline-2"])

        let facts = try harness.closedFacts()
        let jumps = Self.jumps(in: facts)
        #expect(jumps.count == 1)
        #expect(jumps.first?.jump ?? 0 >= 8 * 86_400_000_000)
        #expect(jumps.first.map { $0.wall.microsecondsSince1970 - $0.jump } ?? 0 < harness.clock.now().microsecondsSince1970,
                "journaled with what the wall clock read, the jump taken off it a reading of the past")
    }

    @Test("the date set back a day: a retry due in a second goes a second later, not a day later")
    func backwardJumpStallsNoTimer() async throws {
        let (harness, network) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let outcome = Eventually<CallOutcome>()
        sdk.track("made-offline", completion: outcome.completion)
        await sdk.settle()
        // The first attempt got no response: the next one is due a second later.
        harness.clock.jumpWallClock(by: .seconds(-86_400))
        network.goOnline()
        sdk.setEmail("ada@example.com")   // any input: it notices the jump
        await sdk.settle()
        harness.clock.advance(by: .seconds(1))
        await sdk.settle()
        #expect(outcome.current == .delivered(project: harness.us.fingerprint, status: 200))
        let jumps = Self.jumps(in: try harness.closedFacts())
        #expect(jumps.count == 1)
        #expect(jumps.first.map { $0.jump <= -86_400_000_000 } == true)
    }

    @Test("a relaunch in the same boot after the date moved 8 days ahead carries the journal's time on by the monotonic clock: a queued event made a minute before is not expired")
    func relaunchSameBoot() async throws {
        let harness = try SDKHarness(rules: EngineRules(deliveryAgeLimitMilliseconds: 3_600_000), transport: Self.offlineNetwork())
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        harness.sdk.track("made-before")
        await harness.sdk.settle()
        harness.sdk.shutdown()
        let stoppedAt = try harness.facts().count
        harness.clock.jumpWallClock(by: .seconds(8 * 86_400))
        harness.clock.advance(by: .seconds(60))
        let relaunched = try harness.restarted(rules: EngineRules(deliveryAgeLimitMilliseconds: 3_600_000))
        await relaunched.sdk.outcome.initialize(harness.us)
        await relaunched.sdk.settle()
        #expect(relaunched.eventNames(receivedBy: "us") == ["made-before"])
        let facts = try relaunched.closedFacts().dropFirst(stoppedAt)
        #expect(!facts.contains { if case .taskCompleted(_, .discarded(.expired)) = $0 { true } else { false } })
        // Journaled right after the engine start that noticed it.
        guard let start = facts.firstIndex(where: { if case .engineStarted = $0 { true } else { false } }) else {
            Issue.record("no engine start")
            return
        }
        let next = facts[facts.index(after: start)]
        guard case .clockJumped(_, let jump) = next else {
            Issue.record("expected clockJumped after the engine start, got \(next)")
            return
        }
        #expect(jump >= 8 * 86_400_000_000)
    }

    @Test("after a reboot the time since the last run is the wall clock's, never less than nothing")
    func relaunchAfterReboot() async throws {
        let harness = try SDKHarness(rules: EngineRules(deliveryAgeLimitMilliseconds: 3_600_000), transport: Self.offlineNetwork())
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        harness.sdk.track("made-before")
        await harness.sdk.settle()
        harness.sdk.shutdown()
        harness.clock.reboot()
        // Two hours by the wall clock (the monotonic one starts again at 0 in the new boot).
        harness.clock.jumpWallClock(by: .seconds(2 * 3_600))
        let relaunched = try harness.restarted(rules: EngineRules(deliveryAgeLimitMilliseconds: 3_600_000))
        await relaunched.sdk.outcome.initialize(harness.us)
        await relaunched.sdk.settle()
        let facts = try relaunched.closedFacts()
        #expect(facts.contains { if case .taskCompleted(_, .discarded(.expired)) = $0 { true } else { false } },
                "two hours passed by the wall clock across the reboot: the hour's age limit passed")
        #expect(Self.jumps(in: facts).isEmpty, "no jump: the wall clock is the only measure across a reboot")
    }

    @Test("the date set 40 days ahead deletes no history kept for 30 days")
    func retentionIgnoresTheWallClock() async throws {
        let harness = try SDKHarness(segmentRecords: 16)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        for index in 0..<40 { sdk.track("before-\(index)") }
        await sdk.settle()
        let first = try harness.facts().first?.sequence
        harness.clock.jumpWallClock(by: .seconds(40 * 86_400))
        for index in 0..<40 { sdk.track("after-\(index)") }
        await sdk.settle()
        harness.clock.advance(by: .seconds(2 * 3_600))
        for index in 0..<40 { sdk.track("later-\(index)") }
        await sdk.settle()
        #expect(try harness.facts().first?.sequence == first, "no segment was deleted")
        #expect(Self.jumps(in: try harness.closedFacts()).count == 1)
    }
}
