import Foundation
import Journal
import SDK
import Testing
import TestSupport
@testable import Demo
@testable import ReplayKit

/// What `replay audit` reads from the demo's journal agrees with what the sandbox recorded.
@Suite("the demo's audit agrees with the sandbox", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct DemoAuditTests {
    @Test("per project: as many requests delivered as the sandbox accepted, for the same endpoints")
    func auditMatchesSandbox() async throws {
        let directory = TemporaryDirectory.uniquePath("replay-audit")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await DemoStory.run(into: directory)
        #expect(outcome.switchResults == [.switchedCleanly, .switchedCleanly, .switchedWithWarnings])

        let (rows, audit) = try AuditRows.of(try JournalReader(directory: directory))
        #expect(rows.count == 18)
        #expect(!rows.contains { $0.status == "pending" })

        for (name, fingerprint) in outcome.projects {
            let accepted = outcome.received[name] ?? []
            let delivered = audit.deliveries[fingerprint]
            #expect((delivered?.forCalls ?? 0) + (delivered?.ownRequests ?? 0) == accepted.count, "\(name): \(accepted)")
            // Every call the audit says was delivered there went to an endpoint the sandbox saw.
            var remaining = accepted
            for row in rows where row.status == "delivered" && row.deliveredTo == fingerprint {
                let path = try #require(row.tasks.last?.path)
                let index = try #require(remaining.firstIndex(of: path), "\(name) never received \(path)")
                remaining.remove(at: index)
            }
        }
        // The calls made while the US disable was held went to EU; the push open stayed on US.
        let us = try #require(outcome.projects.first { $0.name == "us" }?.fingerprint)
        let eu = try #require(outcome.projects.first { $0.name == "eu" }?.fingerprint)
        let queued = rows.filter { $0.gateNames.first == "queued" }
        #expect(queued.map(\.name) == [.setEmail, .track, .registerToken, .track])
        #expect(queued.prefix(3).allSatisfy { $0.deliveredTo == eu && $0.liveAtCall == us })
        #expect(rows.first { $0.name == .trackPushOpen }?.deliveredTo == us)
        #expect(rows.first { $0.name == .setAttribution }?.status == "failed")
    }
}
