import Foundation
import Journal
import SDKTesting
import Testing
@testable import SDK

/// A burst keeps thousands of events queued: the segment due in its middle waits (up to twice
/// its bounds) for a snapshot taken once the burst has drained.
@Suite("Rotation during a burst", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct RotationDuringBurstTests {
    /// The journal's snapshots: sequence and payload size.
    static func snapshots(in directory: String) throws -> [(sequence: UInt64, bytes: Int)] {
        let cursor = try JournalReader(directory: directory + "/journal").records(mode: .salvage)
        var snapshots: [(UInt64, Int)] = []
        while let record = try cursor.next() {
            if record.isSnapshot { snapshots.append((record.sequence, record.payload.count)) }
        }
        return snapshots
    }

    /// Hands the SDK every answer, oldest first, each once it processed the one before, until
    /// no request is left; then waits for the SDK to settle.
    static func answerAll(_ harness: SDKHarness, _ transport: LockstepTransport) async {
        while true {
            for _ in 0..<3 { _ = harness.sdk.liveProject }
            guard let exchange = transport.takeNext(holding: []) else { break }
            await exchange.deliver()
        }
        await harness.sdk.settle()
    }

    @Test("a rotation due mid-burst waits, at most twice the segment's records, for the drained state's snapshot; a restart restores from it")
    func rotationWaitsForTheDrain() async throws {
        // Answers reach the SDK only when the test hands them over, so the whole burst is
        // queued before the first bulk is answered. (The harness's endpoints are the sandbox's
        // own, so the demo host's root is never used.)
        let transport = LockstepTransport(sandboxRoot: URL(fileURLWithPath: "/"))
        defer { transport.invalidate() }
        let harness = try await BulkDeliveryTests.identified(try SDKHarness(transport: transport, segmentRecords: 64))
        let outcomes = BulkDeliveryTests.Outcomes()
        for index in 0..<1_000 {
            harness.sdk.track("burst-\(index)", dataFields: ["index": .integer(Int64(index))], completion: outcomes.completion(index))
        }
        // Reads are barriers: every track is processed, none answered.
        for _ in 0..<3 { _ = harness.sdk.liveProject }
        let held = try Self.snapshots(in: harness.directory)
        // Once the queued events make the snapshot large (a few hundred of them), a due segment
        // waits: every large snapshot begins a segment that followed one of at least twice 64
        // records. No segment holds more than twice 64 records and the last input's few (the
        // bound counts records as they are appended, not as the group-commit thread writes them).
        let large = zip(held, held.dropFirst()).filter { $0.1.bytes > EngineBounds.largeSnapshotBytes }
        #expect(!large.isEmpty, "the burst made large snapshots: \(held)")
        for (previous, next) in large {
            #expect(next.sequence - previous.sequence >= 128, "segments of \(held.map(\.sequence))")
        }
        for (previous, next) in zip(held, held.dropFirst()) {
            #expect(next.sequence - previous.sequence <= 128 + 8, "segments of \(held.map(\.sequence))")
        }

        await Self.answerAll(harness, transport)
        #expect(outcomes.all.count == 1_000)
        #expect(outcomes.all.values.allSatisfy { $0 == .delivered(project: harness.us.fingerprint, status: 200) })
        // Calls after the drain: the segment falls due with the state small.
        for index in 0..<40 {
            harness.sdk.track("after-burst-\(index)", dataFields: nil, completion: outcomes.completion(1_000 + index))
        }
        await Self.answerAll(harness, transport)
        #expect(outcomes.all.count == 1_040)
        #expect(outcomes.all.values.allSatisfy { $0 == .delivered(project: harness.us.fingerprint, status: 200) })
        // Read once shut down: `settle()` does not wait for the journal's writer, and the last
        // snapshot may still be on its way to the file. (The restart below shuts down anyway.)
        harness.sdk.shutdown()
        let drained = try Self.snapshots(in: harness.directory)
        let last = try #require(drained.last)
        #expect(drained.count > held.count, "a segment began after the burst drained")
        #expect(last.bytes < EngineBounds.largeSnapshotBytes, "its snapshot is small: \(last.bytes) bytes")

        // A restart folds at most the last segment on top of its snapshot, and goes on.
        let restarted = try harness.restarted()
        defer { restarted.sdk.shutdown() }
        await restarted.sdk.outcome.initialize(harness.us)
        #expect(await restarted.sdk.outcome.track("after-restart") == .delivered(project: harness.us.fingerprint, status: 200))
    }
}
