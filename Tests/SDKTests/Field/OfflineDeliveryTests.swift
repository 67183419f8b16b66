import Foundation
import Journal
import Sandbox
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// A phone offline for minutes or hours: a request that got no response never uses its task
/// up; the queue waits, with a capped backoff, and resumes at once when the app says the
/// network is back. Calls end otherwise only by an honest rule (the server's answer, the
/// queue's bounds, a purge, the age limit).
@Suite("Field: offline delivery", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct OfflineDeliveryTests {
    /// Lets `duration` pass on the manual clock in steps, letting the SDK settle after each:
    /// every timer due meanwhile fires, in order.
    static func pass(_ duration: Duration, in steps: Int, _ harness: SDKHarness) async {
        for _ in 0..<steps {
            await harness.sdk.settle()
            harness.clock.advance(by: duration / steps)
        }
        await harness.sdk.settle()
    }

    @Test("thirty minutes offline: every call made offline reaches its project, in call order, for its own user, once the network is back")
    func thirtyMinutesOffline() async throws {
        let (harness, network) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        var outcomes: [Eventually<CallOutcome>] = []
        func track(_ name: String) {
            let outcome = Eventually<CallOutcome>()
            outcomes.append(outcome)
            sdk.track(name, dataFields: ["n": .integer(Int64(outcomes.count))], completion: outcome.completion)
        }
        for index in 0..<30 { track("ada-\(index)") }
        let profile = Eventually<CallOutcome>()
        sdk.updateUser(dataFields: ["plan": "pro"], completion: profile.completion)
        sdk.setEmail("bob@example.com")
        for index in 0..<30 { track("bob-\(index)") }
        await Self.pass(.seconds(30 * 60), in: 60, harness)
        #expect(network.refusedRequests > 1, "the SDK kept trying while offline")
        for outcome in outcomes + [profile] { #expect(outcome.current == nil, "nothing ended while offline: \(String(describing: outcome.current))") }

        network.goOnline()
        sdk.networkBecameReachable()
        await sdk.settle()
        for outcome in outcomes + [profile] { #expect(outcome.current == .delivered(project: harness.us.fingerprint, status: 200)) }
        let received = harness.sandbox.deliveredEvents(project: "us")
        #expect(received.map(\.eventName) == (0..<30).map { "ada-\($0)" } + (0..<30).map { "bob-\($0)" }, "in call order")
        for event in received {
            #expect(event.email == (event.eventName.hasPrefix("ada") ? "ada@example.com" : "bob@example.com"))
        }
        #expect(harness.received(by: "us").contains { $0.endpoint == "users/update" })
    }

    @Test("network back before the backoff ends: networkBecameReachable() sends the waiting request at once; each wait is journaled with its reason")
    func reachableResumesAtOnce() async throws {
        let (harness, network) = try await SDKHarness.adaOnUSGoneOffline()
        let sdk = harness.sdk
        let outcome = Eventually<CallOutcome>()
        sdk.track("made-offline", completion: outcome.completion)
        await Self.pass(.seconds(20 * 60), in: 40, harness)   // the backoff reached its 5-minute cap
        network.goOnline()
        sdk.networkBecameReachable()
        #expect(await outcome.value == .delivered(project: harness.us.fingerprint, status: 200))
        let facts = try harness.closedFacts()
        let waits = facts.compactMap { fact -> (Int, JournalTime, RetryReason)? in
            if case .retryScheduled(_, let attempt, let due, let reason) = fact { (attempt, due, reason) } else { nil }
        }
        #expect(waits.count >= 8)
        #expect(waits.allSatisfy { if case .noResponse(SwitchableNetwork.offlineError) = $0.2 { true } else { false } })
        #expect(facts.contains(.networkReachable))
    }

    @Test("5xx and 429 keep their bound, but attempts that got no response are not counted against it")
    func serverErrorsBoundedOfflineNot() async throws {
        let (harness, network) = try SDKHarness.withSwitchableNetwork()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        // Four 503s (one less than RetryRules.maxAttempts) with offline stretches in between.
        harness.sandbox.inject(.status(503), matching: .endpoint("events/track"), times: 4)
        let outcome = Eventually<CallOutcome>()
        sdk.track("patient", completion: outcome.completion)
        for _ in 0..<4 {
            await Self.pass(.seconds(60), in: 6, harness)
            network.goOffline()
            await Self.pass(.seconds(600), in: 10, harness)
            network.goOnline()
        }
        await Self.pass(.seconds(600), in: 10, harness)
        #expect(await outcome.value == .delivered(project: harness.us.fingerprint, status: 200))

        harness.sandbox.inject(.status(503), matching: .endpoint("events/track"), times: 5)
        let doomed = Eventually<CallOutcome>()
        sdk.track("doomed", completion: doomed.completion)
        await Self.pass(.seconds(600), in: 20, harness)
        guard case .failed(.retriesExhausted(let reason)) = await doomed.value else {
            Issue.record("expected the fifth 503 to end it, got \(String(describing: doomed.current))")
            return
        }
        #expect(reason == "5 attempts; last: HTTP 503 GenericError: injected status 503")
    }

    @Test("a request older than the age limit is discarded, expired, when its turn comes; a kept disable is not; the audit says so")
    func ageLimit() async throws {
        let (harness, network) = try SDKHarness.withSwitchableNetwork(rules: EngineRules(deliveryAgeLimitMilliseconds: 3_600_000))
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-1")
        network.goOffline()
        let old = Eventually<CallOutcome>()
        sdk.track("too-old", completion: old.completion)
        let switched = Eventually<SwitchResult>()
        sdk.switchProject(to: harness.eu, completion: switched.completion)   // keeps the US disable, offline
        await Self.pass(.seconds(61 * 60), in: 61, harness)
        #expect(await old.value == .discarded(.purgedBySwitch(SwitchID(1))), "the switch purged it first")

        sdk.setEmail("ada@example.eu")                   // a switch never re-identifies the user
        let expiring = Eventually<CallOutcome>()
        sdk.track("also-too-old", completion: expiring.completion)
        // Expired when its turn next comes: at its next retry, at most the backoff's cap (five
        // minutes) after the limit.
        await Self.pass(.seconds(66 * 60), in: 66, harness)
        let expired = await expiring.value
        #expect(expired == .discarded(.expired(ageLimit: .seconds(3_600))), "\(expired)")

        network.goOnline()
        sdk.networkBecameReachable()
        await sdk.settle()
        #expect(harness.received(by: "us").contains { $0.endpoint == "users/disableDevice" }, "the kept disable outlives the age limit")
        #expect(!harness.eventNames(receivedBy: "eu").contains("also-too-old"))
    }
}
