import Foundation
import Journal
import Locking
import Sandbox
import Testing
@testable import SDK

/// Bursts of `track` calls: delivered in bulk requests, in call order, each call resolved on its
/// own, the queue bounded in events.
@Suite("Bulk delivery", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct BulkDeliveryTests {
    /// Outcomes by the index of the call that made them.
    final class Outcomes: Sendable {
        private let outcomes = Locked<[Int: CallOutcome]>([:])
        func completion(_ index: Int) -> @Sendable (CallOutcome) -> Void {
            { outcome in self.outcomes.withLock { $0[index] = outcome } }
        }
        var all: [Int: CallOutcome] { outcomes.withLock { $0 } }
    }

    /// `harness` with the SDK initialized on US and the user identified: events are sent, not
    /// held for an unknown user.
    static func identified(_ harness: SDKHarness) async throws -> SDKHarness {
        await harness.sdk.outcome.initialize(harness.us)
        await harness.sdk.outcome.setEmail("ada@example.com")
        return harness
    }

    @Test("10,000 tracks made at once reach the project in call order, in a few dozen requests, none discarded")
    func burstDelivered() async throws {
        let harness = try await Self.identified(try SDKHarness())
        let outcomes = Outcomes()
        for index in 0..<10_000 {
            harness.sdk.track("burst-\(index)", dataFields: ["index": .integer(Int64(index))], completion: outcomes.completion(index))
        }
        await harness.sdk.settle()

        let all = outcomes.all
        #expect(all.count == 10_000)
        let delivered = all.values.filter { $0 == .delivered(project: harness.us.fingerprint, status: 200) }.count
        #expect(delivered == 10_000, "not delivered: \(all.filter { $0.value != .delivered(project: harness.us.fingerprint, status: 200) }.prefix(3))")

        let events = harness.sandbox.deliveredEvents(project: "us")
        #expect(events.map(\.eventName) == (0..<10_000).map { "burst-\($0)" }, "every event once, in call order")
        let requests = harness.sandbox.delivered(project: "us").filter { $0.endpoint?.hasPrefix("events/track") == true }
        #expect(requests.count <= 40, "\(requests.count) requests")
        print("bulk delivery: 10,000 tracks in \(requests.count) requests")
        #expect(requests.contains { $0.endpoint == "events/trackBulk" })
        let largest = requests.compactMap { ($0.jsonObject?["events"] as? [Any])?.count }.max() ?? 0
        #expect(largest <= EngineRules().bulkEventLimit)
        #expect(events.allSatisfy { $0.email == "ada@example.com" })
    }

    @Test("a delivered bulk's calls resolve in one callsResolved record; each call is resolved once and its completion heard once")
    func bulkResolvedInOneRecord() async throws {
        let harness = try await Self.identified(try SDKHarness())
        let outcomes = Outcomes()
        let heard = Locked<Int>(0)
        for index in 0..<600 {
            let record = outcomes.completion(index)
            harness.sdk.track("burst-\(index)") { outcome in
                heard.withLock { $0 += 1 }
                record(outcome)
            }
        }
        await harness.sdk.settle()
        let facts = try harness.closedFacts()

        #expect(heard.withLock { $0 } == 600, "each completion once")
        #expect(outcomes.all.values.allSatisfy { $0 == .delivered(project: harness.us.fingerprint, status: 200) })
        let bulks = facts.compactMap { fact -> (TaskID, [CallID])? in
            if case .callsResolved(let task, let calls, .delivered(harness.us.fingerprint, 200)) = fact { (task, calls) } else { nil }
        }
        #expect(!bulks.isEmpty, "a delivered bulk resolves in one record")
        #expect(bulks.allSatisfy { $0.1.count > 1 })
        // Each bulk lists its task's calls, in call order: the task's own, then those that joined it.
        for (task, calls) in bulks {
            var carried: [CallID] = []
            for fact in facts {
                if case .taskQueued(let queued) = fact, queued.id == task, let call = queued.call { carried.append(call) }
                if case .eventBatched(task, let event, _) = fact { carried.append(event.call) }
            }
            #expect(calls == carried, "task \(task)")
        }
        let received = facts.compactMap { fact -> CallID? in
            if case .callReceived(let call) = fact, case .track = call.call { call.id } else { nil }
        }
        var resolutions: [CallID: Int] = [:]
        for fact in facts { for (call, _) in fact.resolutions { resolutions[call, default: 0] += 1 } }
        #expect(received.count == 600 && received.allSatisfy { resolutions[$0] == 1 }, "every track resolved exactly once")
    }

    @Test("the completions of one bulk answer run one after the other, in call order, even on a concurrent callback queue")
    func bulkCompletionsInCallOrder() async throws {
        // Completions dispatched one by one on a concurrent queue come out of order only some of
        // the time: three bursts make a miss unlikely.
        for _ in 0..<3 { try await burstCompletionsInCallOrder() }
    }

    private func burstCompletionsInCallOrder() async throws {
        var rules = EngineRules()
        rules.bulkEventLimit = 1_000
        let harness = try await Self.identified(try SDKHarness(rules: rules, callbackQueue: DispatchQueue(label: "concurrent callbacks", attributes: .concurrent)))
        let order = Locked<[Int]>([])
        for index in 0..<1_000 {
            harness.sdk.track("ordered-\(index)") { _ in order.withLock { $0.append(index) } }
        }
        await harness.sdk.settle()
        // The first call went alone; the others gathered behind it into bulk requests (one, when
        // they all reached the engine before the first answer; more on a slower run).
        let requests = harness.sandbox.delivered(project: "us").filter { $0.endpoint?.hasPrefix("events/track") == true }
        #expect(requests.first?.endpoint == "events/track")
        let bulks = requests.dropFirst().map { request in
            ((request.jsonObject?["events"] as? [[String: Any]]) ?? []).compactMap { ($0["eventName"] as? String)?.split(separator: "-").last.flatMap { Int($0) } }
        }
        #expect(requests.dropFirst().allSatisfy { $0.endpoint == "events/trackBulk" } && bulks.allSatisfy { $0.count > 1 })
        #expect(bulks.flatMap { $0 } == Array(1..<1_000), "the bulks carry the other calls, in call order")
        let heard = order.withLock { $0 }
        #expect(heard.count == 1_000)
        for events in bulks {
            // Other bulks' completions may run between them on a concurrent queue; one bulk's never out of order.
            let members = Set(events)
            let completed = heard.filter { members.contains($0) }
            let firstOutOfOrder = zip(completed, events).first { $0 != $1 }
            #expect(completed.count == events.count && firstOutOfOrder == nil,
                    "a bulk's completions out of call order at \(String(describing: firstOutOfOrder))")
        }
    }

    @Test("an event the project refuses in a bulk fails alone; the others are delivered")
    func refusedEventFailsAlone() async throws {
        let sandbox = try SandboxBackend(projects: [
            SandboxProject(name: "us", apiKey: SDKHarness.usKey, region: "us", disallowedEventNames: ["forbidden"]),
        ])
        let harness = try await Self.identified(try SDKHarness(sandbox: sandbox))
        let outcomes = Outcomes()
        let names = ["first", "second", "forbidden", "fourth", "fifth"]
        for (index, name) in names.enumerated() { harness.sdk.track(name, completion: outcomes.completion(index)) }
        await harness.sdk.settle()

        let all = outcomes.all
        let us = harness.us.fingerprint
        #expect(all[0] == .delivered(project: us, status: 200))
        #expect(all[1] == .delivered(project: us, status: 200))
        guard case .failed(.httpStatus(200, code: "EventRefused", let message))? = all[2] else {
            Issue.record("expected the refused event to fail, got \(String(describing: all[2]))")
            return
        }
        #expect(message?.contains("disallowedEventNames") == true)
        #expect(all[3] == .delivered(project: us, status: 200))
        #expect(all[4] == .delivered(project: us, status: 200))
        #expect(sandbox.deliveredEvents(project: "us").map(\.eventName) == ["first", "second", "fourth", "fifth"])
        #expect(sandbox.delivered(project: "us").contains { $0.endpoint == "events/trackBulk" })
    }

    @Test("a single track on an idle queue still goes alone as events/track")
    func aloneWhenIdle() async throws {
        let harness = try await Self.identified(try SDKHarness())
        #expect(await harness.sdk.outcome.track("one") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(await harness.sdk.outcome.track("two") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(harness.received(by: "us").compactMap(\.endpoint).filter { $0.hasPrefix("events/") } == ["events/track", "events/track"])
    }

    @Test("bulkEventLimit 1 sends every event alone")
    func batchingOff() async throws {
        let harness = try await Self.identified(try SDKHarness(rules: EngineRules(bulkEventLimit: 1)))
        let outcomes = Outcomes()
        for index in 0..<20 { harness.sdk.track("e\(index)", completion: outcomes.completion(index)) }
        await harness.sdk.settle()
        #expect(outcomes.all.values.allSatisfy { $0 == .delivered(project: harness.us.fingerprint, status: 200) })
        let paths = harness.received(by: "us").compactMap(\.endpoint).filter { $0.hasPrefix("events/") }
        #expect(paths == Array(repeating: "events/track", count: 20))
    }

    @Test("a switch's purge discards a batched task's every call, each resolved on its own")
    func purgedBatch() async throws {
        let harness = try await Self.identified(try SDKHarness())
        harness.sandbox.inject(.status(503), matching: .endpoint("events/track"), times: 1)
        let outcomes = Outcomes()
        for index in 0..<6 { harness.sdk.track("held-\(index)", completion: outcomes.completion(index)) }
        await harness.sdk.settle()   // the first is retrying; the other five wait in one batched task
        let result = await harness.sdk.outcome.switchProject(to: harness.eu)
        #expect(result == .switchedCleanly || result == .switchedWithWarnings)
        await harness.sdk.settle()
        let all = outcomes.all
        #expect(all.count == 6)
        for index in 1..<6 {
            guard case .discarded(.purgedBySwitch)? = all[index] else {
                Issue.record("call \(index): \(String(describing: all[index]))")
                continue
            }
        }
        let facts = try harness.closedFacts()
        let batched = facts.filter { if case .eventBatched = $0 { true } else { false } }.count
        #expect(batched >= 4)
    }

    @Test("the queue is bounded in events: past its capacity a track is discarded as queueFull")
    func boundedInEvents() async throws {
        let harness = try await Self.identified(try SDKHarness(rules: EngineRules(queueCapacity: 10)))
        harness.sandbox.inject(.status(503), matching: .endpoint("events/track"), times: 1)
        let outcomes = Outcomes()
        for index in 0..<15 { harness.sdk.track("e\(index)", completion: outcomes.completion(index)) }
        await harness.sdk.settle()
        let all = outcomes.all
        let full = all.values.filter { $0 == .discarded(.queueFull(capacity: 10)) }.count
        #expect(full == 5, "\(all.sorted { $0.key < $1.key })")
        harness.clock.advance(by: .seconds(1))
        await harness.sdk.settle()
        let delivered = outcomes.all.values.filter { $0 == .delivered(project: harness.us.fingerprint, status: 200) }.count
        #expect(delivered == 10)
    }
}

extension BulkDeliveryTests {
    @Test("no event joins a task an earlier launch queued: after a restart a burst starts its own task")
    func restartStartsNewBatch() async throws {
        let harness = try await Self.identified(try SDKHarness())
        harness.sandbox.inject(.status(503), matching: .endpoint("events/track"), times: 1)
        for index in 0..<4 { harness.sdk.track("before-\(index)", completion: nil) }
        await harness.sdk.outcome.flush()
        await harness.sdk.settle()
        let firstLaunch = try harness.facts()
        let before = firstLaunch.compactMap { entry -> TaskID? in
            if case .taskQueued(let task) = entry.fact { task.id } else { nil }
        }
        #expect(firstLaunch.contains { if case .eventBatched = $0.fact { true } else { false } }, "the first launch batched")
        let lastOfFirstLaunch = firstLaunch.last?.sequence ?? 0

        let restarted = try harness.restarted()
        await restarted.sdk.outcome.initialize(restarted.us)
        restarted.sandbox.inject(.hold(ResponseHold()), matching: .endpoint("events/track"), times: 1)
        for index in 0..<3 { restarted.sdk.track("after-\(index)", completion: nil) }
        await restarted.sdk.settle(timeout: .seconds(0))
        restarted.sdk.shutdown()
        let secondLaunch = try restarted.facts().filter { $0.sequence > lastOfFirstLaunch }
        let joinedOld = secondLaunch.contains { entry in
            if case .eventBatched(let task, _, _) = entry.fact { before.contains(task) } else { false }
        }
        #expect(!joinedOld)
        #expect(secondLaunch.contains { if case .eventBatched = $0.fact { true } else { false } }, "the second launch batched its own")
    }
}
