import Foundation
import Journal
import Sandbox
import Testing
@testable import SDK

/// The real engine over a journal whose storage loses power: only what was synced survives,
/// followed by a clean, torn, zeroed or garbage tail; then a new SDK opens what is left.
@Suite("Power loss", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct PowerLossTests {
    @Test("a power loss mid-switch keeps every acknowledged call; the relaunch delivers each exactly once, keeps the disable, and the journal keeps the contract",
          arguments: [InMemoryStorage.LossTail.clean, .unsyncedPrefix(37), .zeros(4096), .garbage(900, seed: 7)])
    func powerLossMidSwitch(tail: InMemoryStorage.LossTail) async throws {
        let storage = InMemoryStorage()
        let ids = SequentialIDs()   // shared: call ids stay unique across the two instances, as real ones are
        let before = try SDKHarness(ids: ids, storage: storage)
        let sdk = before.sdk
        await sdk.outcome.initialize(before.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-1")
        for index in 0..<10 { sdk.track("acked-\(index)", completion: nil) }
        guard case .applied = await sdk.outcome.flush() else {
            Issue.record("flush failed")
            return
        }
        // Not acknowledged: made, maybe journaled, maybe sent, but never flushed.
        for index in 0..<5 { sdk.track("unacked-\(index)", completion: nil) }
        sdk.switchProject(to: before.eu) { _ in }
        sdk.track("during-the-switch", completion: nil)
        _ = sdk.engineView()                             // every call above reached the engine
        let crashed = storage.simulatePowerLoss(tail)
        sdk.shutdown()                                   // the process is gone; what was on the wire may still arrive

        let after = try SDKHarness(directory: before.directory, sandbox: before.sandbox, clock: before.clock, ids: ids,
                                   storage: crashed, keepsDirectory: true)
        #expect(after.sdk.journalFailure == nil)
        await after.sdk.outcome.initialize(before.eu)
        await after.sdk.outcome.setEmail("ada@example.com")
        await after.sdk.outcome.track("after-the-relaunch")
        await after.sdk.settle()
        after.sdk.shutdown()

        // Every acknowledged call is in the surviving journal and resolved once: delivered to US
        // (which then received it exactly once: re-sends carry the same key, and the sandbox takes
        // a key once), or discarded by the switch's purge, as the contract says (it may have
        // reached US before the loss, never twice). Nothing reached a project twice.
        let fold = try JournalFold(directory: before.directory, storage: crashed)
        var names: [CallID: String] = [:]
        var outcomes: [String: [CallOutcome]] = [:]
        for entry in fold.entries {
            if case .callReceived(let received) = entry.fact, case .track(let name, _) = received.call { names[received.id] = name }
            for (call, outcome) in entry.fact.resolutions { if let name = names[call] { outcomes[name, default: []].append(outcome) } }
        }
        let events = { (project: String) in
            after.eventNames(receivedBy: project)
        }
        let us = events("us"), eu = events("eu")
        for index in 0..<10 {
            let name = "acked-\(index)"
            let resolved = outcomes[name] ?? []
            #expect(resolved.count == 1, "\(name): \(resolved)")
            switch resolved.first {
            case .delivered(let project, _)?:
                #expect(project == before.us.fingerprint && us.filter { $0 == name }.count == 1, "\(name) reached US \(us)")
            case .discarded(.purgedBySwitch)?:
                #expect(us.filter { $0 == name }.count <= 1)
            default:
                Issue.record("\(name): \(resolved)")
            }
        }
        #expect(Set(us).count == us.count && Set(eu).count == eu.count, "US \(us), EU \(eu)")
        #expect(eu.contains("after-the-relaunch"))
        #expect(!eu.contains { $0.hasPrefix("acked-") })
        // The outgoing project's device was disabled, whether the switch began before the loss
        // (its disable kept) or at the relaunch (a switch at launch).
        #expect(after.received(by: "us").contains { $0.endpoint == "users/disableDevice" })

        // The journal that survived, with what the relaunch added, verifies and keeps the contract.
        let report = try JournalReader(directory: before.directory + "/journal", storage: crashed).verify()
        #expect(report.corruption.isEmpty)
        let violations = ContractAudit(fold).violations()
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        #expect(fold.recheck() == nil)
    }
}
