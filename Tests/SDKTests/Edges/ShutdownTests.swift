import Foundation
import Journal
import Locking
import Sandbox
import Testing
import TestSupport
@testable import SDK

/// Issue item 3: no completion is ever stranded, not at shutdown, not across a relaunch.
@Suite("Edges: shutdown", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct ShutdownTests {
    @Test("after shutdown every async form returns: a switch is notPerformed, calls are discarded(shutdown), settle returns")
    func callsAfterShutdownReturn() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        sdk.shutdown()
        #expect(await sdk.outcome.switchProject(to: harness.eu) == .notPerformed)
        #expect(await sdk.outcome.track("late") == .discarded(.shutdown))
        #expect(await sdk.outcome.flush() == .discarded(.shutdown))
        #expect(await sdk.outcome.initialize(harness.eu) == .discarded(.shutdown))
        #expect(await sdk.outcome.handleUniversalLink(URL(string: "https://example.com/x")!).outcome == .discarded(.shutdown))
        await sdk.settle()
        #expect(await sdk.settle(timeout: .seconds(1)))
    }

    @Test("calls racing shutdown() from another thread: every completion runs exactly once")
    func callsRacingShutdown() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let calls = 2_000
        let answered = DispatchGroup()
        let count = Locked(0)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let caller = Thread {
            for index in 0..<calls {
                answered.enter()
                if index == 10 { started.signal() }
                sdk.track("race-\(index)") { _ in
                    count.withLock { $0 += 1 }
                    answered.leave()
                }
            }
            finished.signal()
        }
        caller.start()
        let (made, waited) = await Task.detached {
            started.wait()
            sdk.shutdown()
            // The group is empty whenever every call made so far is answered, so it is waited for
            // only once the caller has made its last call. A stranded completion would keep this
            // waiting forever: fail instead, generously late.
            let made = finished.wait(timeout: .now() + 60)
            return (made, answered.wait(timeout: .now() + 60))
        }.value
        #expect(made == .success, "the caller never finished its calls")
        #expect(waited == .success, "completions were stranded by the shutdown")
        #expect(count.withLock { $0 } == calls)
    }

    @Test("a relaunch never hands out a call id the journal still uses, so an old outcome never reaches a new completion")
    func noCallIDReusedAcrossRelaunch() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        let hold = ResponseHold()
        harness.sandbox.inject(.hold(hold), matching: .endpoint("events/track"), times: 1)
        sdk.track("old", completion: nil)
        #expect(await hold.waitUntilHeld(count: 1))
        sdk.shutdown()
        let before = try harness.facts().map(\.fact)
        let pendingTask = before.compactMap { if case .taskQueued(let task) = $0, task.path == "events/track" { task.call } else { nil } }

        // The same id generator again: it starts over at 1.
        let relaunched = try SDKHarness(directory: harness.directory, sandbox: harness.sandbox, clock: harness.clock, keepsDirectory: true)
        for index in 0..<5 { relaunched.sdk.track("new\(index)", completion: nil) }
        await relaunched.sdk.outcome.initialize(relaunched.us)
        hold.release()
        await relaunched.sdk.settle()
        let after = try relaunched.closedFacts().dropFirst(before.count)
        let newCalls = after.compactMap { if case .callReceived(let received) = $0 { received.id } else { nil } }
        #expect(newCalls.count == 6)
        #expect(Set(newCalls).isDisjoint(with: pendingTask), "a new call reused the id of a task the journal still held")
    }
}
