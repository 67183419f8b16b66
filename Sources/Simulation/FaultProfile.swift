import SDK

/// How hostile a story's world is: drawn once per seed, it sets the odds of every fault the
/// simulated backend, disk, auth provider and modules inject, and the engine rules in force.
package struct FaultProfile: Sendable, Hashable {
    /// One-way network latency, in virtual milliseconds.
    package var latencyMilliseconds: ClosedRange<Int64> = 5...120
    /// Odds that a request is answered 5xx / 429 without being processed.
    package var serverError = 0.0
    package var tooManyRequests = 0.0
    /// Odds that the connection is refused at once (the request never reaches the backend).
    package var refused = 0.0
    /// Odds that the request is lost on the way (never reaches the backend; the client times out).
    package var lostBeforeBackend = 0.0
    /// Odds that the backend processes the request but its answer is lost (the client times out).
    package var lostAfterBackend = 0.0
    /// How long the client waits for an answer that never comes.
    var timeoutMilliseconds: Int64 = 30_000
    /// Odds that a JWT project's tokens expire just before a request arrives.
    package var tokenExpiry = 0.0
    /// Odds that the auth provider fails to supply a token, and its latency.
    package var authFailure = 0.0
    var authLatencyMilliseconds: ClosedRange<Int64> = 1...50
    /// How long the disk takes to make a flush durable (a slow disk passes the teardown's bound).
    package var syncDelayMilliseconds: ClosedRange<Int64> = 0...5
    /// Odds that a flush's `fdatasync` fails (the journal then stops accepting facts).
    package var syncFailure = 0.0
    /// How long an awaited module hook runs (past the bound it overruns), and the odds that a
    /// module's handler fails.
    package var hookMilliseconds: ClosedRange<Int64> = 0...20
    package var moduleFailure = 0.0
    /// Odds that the auth provider answers only past its bound (and then twice).
    var authLate = 0.0
    /// How long a tracked link's host takes to answer (sometimes long after a landing).
    var linkLatencyMilliseconds: ClosedRange<Int64> = 5...200
    /// Odds, at each flush, that the disk fails every sync for a while (the journal then goes
    /// on in memory and comes back with a gap).
    var diskOutage = 0.0
    /// Odds, at each flush, that the disk fills up for a while: every write fails, leaving
    /// part of its bytes, so the records the writer had numbered and not yet written are lost.
    var diskFull = 0.0
    /// Whether the callback queue may run its pending items in any order, as a concurrent
    /// `DispatchQueue` can.
    var concurrentCallbacks = false
    /// Delay before the callback queue runs its next completion.
    var callbackDelayMilliseconds: ClosedRange<Int64> = 0...2
    /// The engine rules recorded at each start.
    package var rules = EngineRules()
    /// Whether the app plugs the built-in modules in (their hooks make teardown steps wait).
    package var withModules = true
    /// Whether the journal cuts commit groups every 64 records, as the SDK's default group
    /// commit does (never inside one input's facts). Off: groups are cut only by the
    /// simulated 2 ms bound.
    var groupsCutInsideInputs = false
    /// Odds that the backend refuses one event of a bulk request (by its name) while accepting
    /// the rest.
    var eventRefusal = 0.0
    /// The retry rules the app configures its projects with; nil: the catalog's quick ones
    /// (``SimulatedProject/reference``, backoff capped at 8 s). A story offline for longer than a
    /// couple of minutes uses the SDK's defaults (capped at 5 min), as most apps do: with an
    /// 8 s cap a day offline would be ten thousand attempts per project.
    package var projectRetry: RetryRules?

    /// A world with no faults at all: the end of every story drains in it.
    static let calm = FaultProfile()

    /// The profile of a seed: most stories are mildly faulty, some very.
    static func draw(_ random: inout SimulationRandom) -> FaultProfile {
        var profile = FaultProfile()
        let harsh = random.chance(0.3)
        let scale = harsh ? 3.0 : 1.0
        profile.latencyMilliseconds = 1...random.int64(5...(harsh ? 3_000 : 300))
        profile.serverError = random.chance(0.5) ? 0.05 * scale : 0
        profile.tooManyRequests = random.chance(0.3) ? 0.03 * scale : 0
        profile.refused = random.chance(0.3) ? 0.03 * scale : 0
        profile.lostBeforeBackend = random.chance(0.3) ? 0.02 * scale : 0
        profile.lostAfterBackend = random.chance(0.4) ? 0.03 * scale : 0
        profile.timeoutMilliseconds = random.pick([5_000, 30_000])
        profile.tokenExpiry = random.chance(0.5) ? 0.05 * scale : 0
        profile.authFailure = random.chance(0.2) ? 0.05 * scale : 0
        profile.authLatencyMilliseconds = 1...random.int64(1...500)
        profile.syncDelayMilliseconds = 0...(random.chance(0.35) ? random.int64(100...6_000) : 5)
        profile.syncFailure = random.chance(0.05) ? 0.1 : 0
        profile.hookMilliseconds = 0...(random.chance(0.35) ? random.int64(100...5_000) : 20)
        profile.moduleFailure = random.chance(0.2) ? 0.1 : 0
        profile.callbackDelayMilliseconds = 0...random.int64(0...20)
        profile.withModules = random.chance(0.85)
        var rules = EngineRules()
        if random.chance(0.15) { rules.gateCapacity = random.int(1...4) }
        if random.chance(0.1) { rules.queueCapacity = random.int(2...8) }
        if random.chance(0.3) { rules.pendingEvents = .deliverToOutgoing(timeoutMilliseconds: random.int64(100...3_000)) }
        profile.rules = rules
        // Drawn last, so older seeds keep the rest of their profile.
        profile.authLate = random.chance(0.1) ? 0.05 * scale : 0
        profile.linkLatencyMilliseconds = 5...(random.chance(0.3) ? random.int64(1_000...30_000) : 300)
        profile.diskOutage = random.chance(0.05) ? 0.2 : 0
        profile.concurrentCallbacks = random.chance(0.3)
        profile.eventRefusal = random.chance(0.2) ? 0.1 * scale : 0
        if random.chance(0.2) { profile.rules.bulkEventLimit = random.int(2...4) }
        profile.diskFull = random.chance(0.05) ? 0.2 : 0
        return profile
    }
}

extension FaultProfile {
    /// The same world without faults (rules and modules kept): where a story's end settles.
    func calmed() -> FaultProfile {
        var calm = FaultProfile.calm
        calm.rules = rules
        calm.withModules = withModules
        calm.groupsCutInsideInputs = groupsCutInsideInputs
        calm.projectRetry = projectRetry
        // The queue's kind is the app's configuration, not a fault.
        calm.concurrentCallbacks = concurrentCallbacks
        return calm
    }
}
