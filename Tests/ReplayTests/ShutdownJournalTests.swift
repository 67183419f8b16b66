import Foundation
import Journal
import Locking
import SDK
import SDKTesting
import Testing
@testable import Demo

/// How `replay` reads a journal that a shutdown cut in the middle of a switch.
@Suite("shutdown mid-switch, as replay reads it", .tags(.endToEnd), .timeLimit(.minutes(2)))
struct ShutdownJournalTests {
    @Test("check is clean; diagnose says which switch was cancelled, which was interrupted, which held call was let go; audit names the reason")
    func shutdownMidSwitch() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pause = PausableModule(name: "push")
        let transport = InProcessTransport { _ in .response(status: 200, headers: [:], body: Data(#"{"code":"Success"}"#.utf8)) }
        let ids = Counter()
        let sdk = try EngagementSDK(configuration: SDKConfiguration(
            storageDirectory: directory, clock: ManualClock(), transport: transport,
            makeCallID: { CallIDGenerator.sequentialUUID(ids.next()) }, modules: [pause]))
        let us = Project(apiKey: "us-key", label: "US")!
        let eu = Project(apiKey: "eu-key", label: "EU", config: ProjectConfig(region: .eu))!
        let other = Project(apiKey: "us2-key", label: "US2")!
        await sdk.outcome.initialize(us)
        await sdk.outcome.setEmail("ada@example.com")
        pause.arm()
        let heard = Locked<[String]>([])
        let answered = DispatchGroup()
        answered.enter()
        sdk.switchProject(to: eu) { result in heard.withLock { $0.append("first \(result)") }; answered.leave() }
        await pause.arrivals.wait(untilAtLeast: 1)
        answered.enter()
        sdk.switchProject(to: other) { result in heard.withLock { $0.append("second \(result)") }; answered.leave() }
        answered.enter()
        sdk.track("held") { outcome in heard.withLock { $0.append("track \(outcome)") }; answered.leave() }
        _ = sdk.switchStatus   // every call above was processed before the shutdown
        await Task.detached {
            sdk.shutdown()
            answered.wait()
        }.value
        #expect(Set(heard.withLock { $0 }) == ["first interruptedByShutdown", "second notPerformed", "track discarded(SDKCore.DiscardReason.shutdown)"])
        pause.release()

        let journal = directory + "/journal"
        let check = ReplayHarness.run(["check", journal])
        #expect(check.status == 0, "\(check.out)")
        let diagnose = ReplayHarness.run(["diagnose", journal])
        #expect(diagnose.out.contains("cancelled") && diagnose.out.contains("notPerformed"), "\(diagnose.out)")
        #expect(diagnose.out.contains("let go at shutdown"), "\(diagnose.out)")
        let audit = ReplayHarness.run(["audit", "--call", "track", journal])
        #expect(audit.out.contains("the SDK shut down"), "\(audit.out)")
    }
}

/// 1, 2, 3 ...
private final class Counter: Sendable {
    private let value = Locked<UInt64>(0)
    func next() -> UInt64 { value.withLock { $0 += 1; return $0 } }
}
