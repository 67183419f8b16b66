import Foundation
import Journal
import ReplayKit
import Sandbox
import SDKTesting
import Testing
@testable import SDK

/// The SDK's public API over URLSession to the Sandbox, with a switch in the middle: what the
/// journal says each project received and what the Sandbox's receipt log says agree, call by
/// call, by the id each call carries on the wire.
@Suite("Reconciliation end to end", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct ReconcileEndToEndTests {
    @Test("a journal with a switch in the middle reconciles to all agreed against the Sandbox's receipt log")
    func switchReconcilesToAgreed() async throws {
        let clock = ManualClock()
        // The backend stamps receipts by the story's clock, as a real backend by a synchronized one.
        let sandbox = try SandboxBackend(projects: [
            SandboxProject(name: "us", apiKey: SDKHarness.usKey, region: "us"),
            SandboxProject(name: "eu", apiKey: SDKHarness.euKey, region: "eu"),
        ], clock: { Date(timeIntervalSince1970: Double(clock.wallClock.microsecondsSince1970) / 1_000_000) })
        let harness = try SDKHarness(sandbox: sandbox, clock: clock)
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        await sdk.outcome.setEmail("ada@example.com")
        await sdk.outcome.registerToken("token-1")
        for index in 0..<6 { sdk.track("before-\(index)", completion: nil) }
        #expect(await sdk.outcome.track("before-last") == .delivered(project: harness.us.fingerprint, status: 200))
        let switched = await sdk.outcome.switchProject(to: harness.eu)
        #expect(switched == .switchedCleanly || switched == .switchedWithWarnings)
        await sdk.outcome.setEmail("ada@example.com")
        for index in 0..<6 { sdk.track("after-\(index)", completion: nil) }
        #expect(await sdk.outcome.track("after-last") == .delivered(project: harness.eu.fingerprint, status: 200))
        await sdk.settle()
        sdk.shutdown()

        let log = harness.directory + "/received.ndjson"
        try sandbox.writeReceiptLog(to: URL(fileURLWithPath: log))
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains(#""call_id":""#) && !$0.contains(SDKHarness.usKey) && !$0.contains(SDKHarness.euKey) },
                "every line names its call; no line carries a key")
        let reconciler = JournalReconciler()
        try reconciler.addJournal(path: harness.directory + "/journal", reader: JournalReader(directory: harness.directory + "/journal"))
        try reconciler.addReceipts(path: log)
        let rows = reconciler.rows()
        #expect(reconciler.problems.isEmpty, "\(reconciler.problems)")
        #expect(rows.count == 16, "registerToken, 14 events and the switch's disable each have a verdict: \(rows.count)")
        #expect(rows.allSatisfy { $0.verdict == .agreed }, "\(rows.filter { $0.verdict != .agreed }.map { "\($0.verdict) \($0.call?.endpoint ?? "-")" })")
        #expect(Set(rows.compactMap(\.project)) == [harness.us.fingerprint, harness.eu.fingerprint])
        #expect(rows.contains { $0.call?.call == nil && $0.call?.endpoint == DeliveryTask.disableDevicePath && $0.call?.project == harness.us.fingerprint },
                "the switch's own disable of the US token is reconciled too")
        #expect(rows.filter { $0.call?.endpoint == DeliveryTask.trackPath }.count == 14, "each event of a bulk has a verdict of its own")
        #expect(rows.allSatisfy { $0.receipts.count == 1 })
    }
}
