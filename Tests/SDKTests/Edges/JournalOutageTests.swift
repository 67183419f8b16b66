import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

/// Issue item 11: a journal that fails comes back, and says what it missed.
@Suite("Edges: a journal that fails comes back", .timeLimit(.minutes(1)))
struct JournalOutageTests {
    @Test("the disk fills up: the SDK goes on in memory, flush says what is not durable; room again: a new segment, a journaled gap, recording resumes")
    func journalComesBack() async throws {
        let storage = SyncHoldingStorage()
        let harness = try SDKHarness(storage: storage)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))

        storage.startFailing()
        #expect(await sdk.outcome.track("while-full") == .delivered(project: harness.us.fingerprint, status: 200), "the SDK keeps working")
        guard case .failed(.retriesExhausted(let reason)) = await sdk.outcome.flush() else {
            Issue.record("a flush during the outage must fail")
            return
        }
        // Which of two honest answers depends on the writer's own thread: when the engine has
        // already seen an append refused, the outage's count of unrecorded facts; when the
        // flush's sync is what fails, that the journal is not durable. Either names the cause,
        // once.
        #expect(reason.contains("has not recorded") || reason.hasPrefix("journal not durable: the journal writer stopped"), "\(reason)")
        #expect(reason.components(separatedBy: "no space left on device").count == 2, "\(reason)")
        #expect(reason.components(separatedBy: "stopped after an earlier failure").count <= 2, "\(reason)")
        #expect(sdk.journalFailure != nil)

        storage.stopFailing()
        harness.clock.advance(by: .seconds(2))          // the retry falls due
        _ = sdk.engineView()
        #expect(sdk.journalFailure == nil)
        #expect(await sdk.outcome.track("after") == .delivered(project: harness.us.fingerprint, status: 200))
        #expect(await sdk.outcome.flush() == .applied(project: harness.us.fingerprint))

        let records = try harness.facts()
        let gaps = records.compactMap { if case .journalGap(let gap) = $0.fact { gap } else { nil } }
        #expect(gaps.count == 1)
        #expect((gaps.first?.lostFacts ?? 0) > 0)
        #expect(gaps.first?.reason.contains("no space left") == true)
        #expect(records.contains { if case .callReceived(let received) = $0.fact, case .track("after", _) = received.call { true } else { false } })
        #expect(try JournalReader(directory: harness.directory + "/journal").segments.count >= 2, "recording resumed in a new segment")
    }
}
