import Foundation
import Journal
import Locking
import Testing
@testable import SDK

/// A burst keeps thousands of events queued: the segment due in its middle waits (up to twice
/// its bounds) for a snapshot taken once the burst has drained.
@Suite("Rotation during a burst", .timeLimit(.minutes(3)))
struct RotationDuringBurstTests {
    /// Answers nothing while holding; `release()` answers every held request with a 200, and
    /// every later one is answered at once.
    final class HeldTransport: Transport {
        private let state = Locked<(holding: Bool, waiting: [@Sendable (TransportResult) -> Void])>((true, []))
        private static let success = TransportResult.response(status: 200, headers: ["content-type": "application/json"],
                                                              body: Data(#"{"code":"Success","msg":""}"#.utf8))

        func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
            let held = state.withLock { state in
                if state.holding { state.waiting.append(completion) }
                return state.holding
            }
            if !held { completion(Self.success) }
        }

        func release() {
            let waiting = state.withLock { state in
                state.holding = false
                defer { state.waiting = [] }
                return state.waiting
            }
            for completion in waiting { completion(Self.success) }
        }
    }

    /// The journal's snapshots: sequence and payload size.
    static func snapshots(in directory: String) throws -> [(sequence: UInt64, bytes: Int)] {
        let cursor = try JournalReader(directory: directory + "/journal").records(mode: .salvage)
        var snapshots: [(UInt64, Int)] = []
        while let record = try cursor.next() {
            if record.isSnapshot { snapshots.append((record.sequence, record.payload.count)) }
        }
        return snapshots
    }

    @Test("a rotation due mid-burst waits, at most twice the segment's records, for the drained state's snapshot; a restart restores from it")
    func rotationWaitsForTheDrain() async throws {
        let transport = HeldTransport()
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
        // records. (A segment is due once its records are written, so it may run a little past
        // either bound.)
        let large = zip(held, held.dropFirst()).filter { $0.1.bytes > EngineBounds.largeSnapshotBytes }
        #expect(!large.isEmpty, "the burst made large snapshots: \(held)")
        for (previous, next) in large {
            #expect(next.sequence - previous.sequence >= 128, "segments of \(held.map(\.sequence))")
        }

        transport.release()
        await harness.sdk.settle()
        #expect(outcomes.all.count == 1_000)
        #expect(outcomes.all.values.allSatisfy { $0 == .delivered(project: harness.us.fingerprint, status: 200) })
        // Calls one at a time after the drain: the segment falls due with the state small.
        for index in 0..<40 {
            #expect(await harness.sdk.track("after-burst-\(index)") == .delivered(project: harness.us.fingerprint, status: 200))
        }
        let drained = try Self.snapshots(in: harness.directory)
        let last = try #require(drained.last)
        #expect(drained.count > held.count, "a segment began after the burst drained")
        #expect(last.bytes < EngineBounds.largeSnapshotBytes, "its snapshot is small: \(last.bytes) bytes")

        // A restart folds at most the last segment on top of its snapshot, and goes on.
        let restarted = try harness.restarted()
        defer { restarted.sdk.shutdown() }
        await restarted.sdk.initialize(harness.us)
        #expect(await restarted.sdk.track("after-restart") == .delivered(project: harness.us.fingerprint, status: 200))
    }
}
