import Foundation
import Journal
import Locking
import SDK
import SDKTesting
import TestSupport
@testable import Demo

/// The stories that made the golden journals under `Tests/Fixtures/journals/v1.0` (see the
/// README there). They run only from ``GoldenJournalWriter``, which is disabled unless
/// `GOLDEN_JOURNALS_WRITE=1` is set: the committed journals are never regenerated, this code
/// says how they were made.
///
/// Each story drives a real ``EngagementSDK`` on a ``ManualClock`` with sequential call ids,
/// against a ``GoldenTransport`` that answers every request at once (a 200), except the
/// requests it is told to hold. Every input reaches the mailbox in an order the story fixes:
/// the story settles (or, while a switch is held, waits for the engine to process what it
/// posted) before its next call, so the facts come out the same on every run (the journal id
/// differs). As in the demo, the one module is a ``PausableModule`` named `push`: awaited hooks
/// of several modules would finish in any order; the story holds a switch by holding its
/// `willSwitchProject` hook.
enum GoldenJournalStories {
    static let alphaKey = "golden-alpha-key-0001"
    static let betaKey = "golden-beta-key-0002"
    static let gammaKey = "golden-gamma-key-0003"
    /// 2025-11-24T16:00:00Z.
    static let start = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `replay demo --out directory`, run in-process on a thread off the cooperative pool.
    static func demo(into directory: String) async throws {
        let run = await DemoFixture.runOffPool(["demo", "--out", directory])
        guard run.status == 0 else { throw Failure(description: "replay demo: \(run.error)") }
    }

    /// Three projects (alpha and gamma in the US, beta in the EU), four switches (the second
    /// with calls made while the outgoing disable is held on the wire), identity calls, tracks,
    /// a purchase and two logouts, in small segments: many rotations, each with its snapshot.
    static func multiSegment(into directory: String) async throws {
        let world = try World(storage: PosixStorage(), segmentBytes: 4096, segmentRecords: 40)
        defer { world.remove() }
        let sdk = world.sdk

        // On alpha: identify, register for push, track.
        sdk.initialize(world.alpha, completion: nil)
        await world.settle(advancing: 1)
        sdk.setEmail("ada@example.com", completion: nil)
        await world.settle(advancing: 0.5)
        sdk.registerToken("apns-golden-alpha", completion: nil)
        await world.settle(advancing: 0.5)
        for index in 0..<6 {
            sdk.track("alpha_event_\(index)", dataFields: ["index": .integer(Int64(index))], completion: nil)
            await world.settle(advancing: 1)
        }
        sdk.updateUser(dataFields: ["plan": "pro", "city": "Lyon"], completion: nil)
        await world.settle(advancing: 1)
        sdk.flush(completion: nil)
        await world.settle(advancing: 5)

        // Switch to beta, cleanly.
        _ = await sdk.outcome.switchProject(to: world.beta)
        await world.settle(advancing: 2)
        sdk.setUserId("user-42", completion: nil)
        await world.settle(advancing: 0.5)
        for index in 0..<4 {
            sdk.track("beta_event_\(index)", completion: nil)
            await world.settle(advancing: 1)
        }
        sdk.trackPurchase(total: 19.9, items: [CommerceItem(id: "mug-1", name: "Mug", price: 9.95, quantity: 2)],
                          completion: nil)
        await world.settle(advancing: 1)
        sdk.updateEmail("ada@example.eu", completion: nil)
        await world.settle(advancing: 1)
        sdk.logoutUser(completion: nil)
        await world.settle(advancing: 3)
        sdk.setEmail("grace@example.eu", completion: nil)
        await world.settle(advancing: 1)

        // Switch to gamma while the push module's willSwitchProject hook is held: calls made
        // meanwhile wait behind the gate and replay on gamma.
        world.module.arm()
        let landed = OneShot<SwitchResult>()
        sdk.switchProject(to: world.gamma) { landed.fulfil($0) }
        await world.module.arrivals.wait(untilAtLeast: 1)
        world.processed()
        sdk.track("during_switch_0", completion: nil)
        sdk.setEmail("grace@example.com", completion: nil)
        sdk.track("during_switch_1", completion: nil)
        world.processed()
        world.clock.advance(by: .milliseconds(400))
        world.processed()
        world.module.release()
        _ = await landed.value
        await world.settle(advancing: 2)
        for index in 0..<3 {
            sdk.track("gamma_event_\(index)", completion: nil)
            await world.settle(advancing: 1)
        }
        sdk.registerToken("apns-golden-gamma", completion: nil)
        await world.settle(advancing: 4)

        // Back to alpha: identify, track, log out, flush.
        _ = await sdk.outcome.switchProject(to: world.alpha)
        await world.settle(advancing: 2)
        sdk.setEmail("ada@example.com", completion: nil)
        await world.settle(advancing: 1)
        for index in 6..<9 {
            sdk.track("alpha_event_\(index)", completion: nil)
            await world.settle(advancing: 1)
        }
        sdk.logoutUser(completion: nil)
        await world.settle(advancing: 1)
        sdk.track("after_logout", completion: nil)
        await world.settle(advancing: 1)
        sdk.flush(completion: nil)
        await world.settle(advancing: 0)
        sdk.shutdown()
        try world.copyJournal(to: directory)
    }

    /// On alpha, then a switch to beta whose outgoing disable never gets an answer on the wire
    /// and whose teardown is held in its release step (the push module's willSwitchProject
    /// hook): calls made during the switch wait behind the gate, and the storage loses power.
    /// What survives is what was synced (up to the switch's durable disable), followed by a
    /// torn prefix of what was written after it and never synced.
    static func crashMidSwitch(into directory: String) async throws {
        let storage = InMemoryStorage()
        // Groups of 4 records reach the file as they are cut, but only flushes make them
        // durable: what follows the switch's durable disable is written, never synced.
        let world = try World(storage: storage, segmentBytes: 4096, segmentRecords: 56,
                              groupCommit: GroupCommit(maxRecords: 4, maxDelay: nil, synchronizesEachGroup: false))
        defer { world.remove() }
        let sdk = world.sdk

        sdk.initialize(world.alpha, completion: nil)
        await world.settle(advancing: 1)
        sdk.setEmail("ada@example.com", completion: nil)
        await world.settle(advancing: 0.5)
        sdk.registerToken("apns-golden-alpha", completion: nil)
        await world.settle(advancing: 0.5)
        for index in 0..<5 {
            sdk.track("acked_\(index)", completion: nil)
            await world.settle(advancing: 1)
        }
        sdk.flush(completion: nil)
        await world.settle(advancing: 2)
        // Made, journaled, delivered, but never flushed.
        sdk.track("unflushed", completion: nil)
        await world.settle(advancing: 1)

        // The switch starts; alpha's disable is held on the wire and never answered, and the
        // teardown stops in its release step.
        world.transport.hold("users/disableDevice")
        world.module.arm()
        sdk.switchProject(to: world.beta) { _ in }
        await world.module.arrivals.wait(untilAtLeast: 1)
        world.processed()
        world.clock.advance(by: .milliseconds(300))
        world.processed()
        // Enough calls that the segment fills up behind the gate: its rotation syncs the first
        // of them (the sealed segment); the last ones are in the new segment, never synced.
        sdk.setEmail("ada@example.eu", completion: nil)
        for index in 0..<11 {
            sdk.track("during_switch_\(index)", completion: nil)
        }
        world.processed()

        // Power is lost: keep half of the bytes written after the last sync of each file.
        let journal = world.directory + "/journal"
        let clean = storage.simulatePowerLoss(.clean)
        var tornAt = 0
        for name in storage.fileNames(in: journal) where name.hasSuffix(".lz4") {
            let written = storage.bytes(of: journal + "/" + name)?.count ?? 0
            let synced = clean.bytes(of: journal + "/" + name)?.count ?? 0
            if written > synced { tornAt = max(tornAt, (written - synced) / 2) }
        }
        guard tornAt > 0 else { throw Failure(description: "nothing was written after the last sync: no torn tail") }
        let crashed = storage.simulatePowerLoss(.unsyncedPrefix(tornAt))
        sdk.shutdown()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in crashed.fileNames(in: journal) where name.hasPrefix("segment-") {
            guard let bytes = crashed.bytes(of: journal + "/" + name) else { continue }
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
    }

    /// Data fields of every shape a data value takes: strings that need escaping, integers at
    /// both ends, fractions, huge and tiny doubles, booleans, null, nested arrays and objects,
    /// empty ones, odd keys. No whole double: ``wholeNumberFields`` has those.
    static let richFields: [String: DataValue] = [
        "text": .string("caf\u{E9} \u{2615} \"quoted\" \\ slash / line\nbreak\ttab \u{01} end"),
        "count": 42, "negative": -7, "max": .integer(Int64.max), "min": .integer(Int64.min),
        "ratio": 0.125, "negativeRatio": -2.5, "big": 1e300, "small": .number(Double.leastNonzeroMagnitude), "third": .number(1.0 / 3.0),
        "yes": true, "no": false, "nothing": nil,
        "list": [1, "two", 3.5, [true, nil], ["inner": "value"]],
        "nested": ["level1": ["level2": ["level3": "deep"]]],
        "empty": .object([:]), "emptyList": [],
        "emoji \u{1F389} key": "value", "": "empty key",
    ]

    /// Data fields with whole doubles (`3.0`, `-0.0`, `1e15`) beside an integer `3`.
    static let wholeNumberFields: [String: DataValue] = [
        "whole": .number(3.0), "negativeZero": .number(-0.0), "large": .number(1e15), "integer": 3,
        "inside": ["alsoWhole": .number(100.0), "fraction": 0.5],
    ]

    /// Data fields of every shape in every place a call carries them: an event held for an
    /// unknown user (and released), tracks sent alone and in a bulk, tracks held behind a
    /// switch's gate across a segment's rotation (the snapshot holds them) and replayed on the
    /// new project, a purchase with items, profile updates, a push open, and a track held after
    /// a logout (the last snapshots hold it). Segments of 30 records.
    static func dataFields(into directory: String) async throws {
        let world = try World(storage: PosixStorage(), segmentBytes: 1 << 20, segmentRecords: 30)
        defer { world.remove() }
        let sdk = world.sdk

        sdk.initialize(world.alpha, completion: nil)
        await world.settle(advancing: 1)
        // Held for an unknown user, then released by the identification.
        sdk.track("anonymous_view", dataFields: richFields, completion: nil)
        await world.settle(advancing: 0.5)
        sdk.setEmail("ada@example.com", completion: nil)
        await world.settle(advancing: 0.5)
        sdk.track("rich", dataFields: richFields, completion: nil)
        await world.settle(advancing: 1)
        sdk.track("whole_numbers", dataFields: wholeNumberFields, completion: nil)
        await world.settle(advancing: 1)
        sdk.track("no_fields", completion: nil)
        await world.settle(advancing: 1)

        // A burst: the first track's answer is held, the others join one bulk.
        world.transport.hold("events/track")
        for index in 0..<8 {
            sdk.track("burst_\(index)", dataFields: ["i": .integer(Int64(index)), "ratio": .number(Double(index) + 0.5),
                                                     "tags": ["a", "b"], "whole": .number(Double(index))], completion: nil)
        }
        world.processed()
        world.transport.release("events/track")
        await world.settle(advancing: 1)

        // A switch to beta held in its willSwitchProject hook: the tracks made meanwhile wait
        // behind the gate with their fields, across a rotation, and replay on beta.
        world.module.arm()
        let landed = OneShot<SwitchResult>()
        sdk.switchProject(to: world.beta) { landed.fulfil($0) }
        await world.module.arrivals.wait(untilAtLeast: 1)
        world.processed()
        sdk.setEmail("ada@example.eu", completion: nil)
        for index in 0..<20 {
            sdk.track("held_\(index)", dataFields: index % 2 == 0 ? richFields : wholeNumberFields, completion: nil)
        }
        world.processed()
        world.clock.advance(by: .milliseconds(300))
        world.processed()
        world.module.release()
        _ = await landed.value
        await world.settle(advancing: 2)

        // Every other call that carries data fields.
        sdk.trackPurchase(total: 29.5, items: [CommerceItem(id: "mug-1", name: "Mug", price: 9.5, quantity: 1,
                                                            dataFields: ["color": "blue", "size": 2, "weight": 0.35]),
                                               CommerceItem(id: "beans-1", name: "Beans", price: 20, quantity: 1)],
                          dataFields: richFields, completion: nil)
        await world.settle(advancing: 1)
        sdk.updateUser(dataFields: wholeNumberFields.merging(["plan": "pro"]) { first, _ in first }, completion: nil)
        await world.settle(advancing: 1)
        sdk.updateUser(dataFields: richFields, mergeNestedObjects: true, completion: nil)
        await world.settle(advancing: 1)
        sdk.trackPushOpen(PushOpen(campaignID: 77, templateID: 88, messageID: "msg-golden-1", appAlreadyRunning: false,
                                   dataFields: ["deep": ["link": "app://golden"], "score": 0.75]), completion: nil)
        await world.settle(advancing: 1)

        // Logged out: the next track waits for a user that never comes (held in the state).
        sdk.logoutUser(completion: nil)
        await world.settle(advancing: 1)
        sdk.track("after_logout", dataFields: wholeNumberFields, completion: nil)
        await world.settle(advancing: 1)
        sdk.flush(completion: nil)
        await world.settle(advancing: 0)
        sdk.shutdown()
        try world.copyJournal(to: directory)
    }

    // MARK: - The world the stories run in

    final class World: Sendable {
        let clock = ManualClock(start: GoldenJournalStories.start)
        let transport = GoldenTransport()
        let module = PausableModule(name: BuiltInModules.push)
        let directory = TemporaryDirectory.uniquePath("golden-journal")
        let sdk: EngagementSDK
        let alpha: Project
        let beta: Project
        let gamma: Project

        init(storage: any JournalStorage, segmentBytes: Int, segmentRecords: Int,
             groupCommit: GroupCommit = GroupCommit(maxRecords: 16, maxDelay: nil, synchronizesEachGroup: false)) throws {
            guard let alpha = Project(apiKey: GoldenJournalStories.alphaKey, config: ProjectConfig(region: .us)),
                  let beta = Project(apiKey: GoldenJournalStories.betaKey, config: ProjectConfig(region: .eu)),
                  let gamma = Project(apiKey: GoldenJournalStories.gammaKey, config: ProjectConfig(region: .us)),
                  let us = URL(string: "http://golden.invalid/us/api/"), let eu = URL(string: "http://golden.invalid/eu/api/")
            else { throw Failure(description: "the golden projects' keys or endpoints were refused") }
            self.alpha = alpha
            self.beta = beta
            self.gamma = gamma
            let counter = Locked<UInt64>(0)
            let configuration = SDKConfiguration(
                storageDirectory: directory, clock: clock, transport: transport,
                makeCallID: { CallIDGenerator.sequentialUUID(counter.withLock { $0 += 1; return $0 }) },
                modules: [module],
                regionEndpoints: RegionEndpoints(us: us, eu: eu),
                // No group-commit thread: groups are cut by size and flushes only, on the
                // engine's thread, so the journal's bytes follow from the inputs alone.
                groupCommit: groupCommit,
                journalSegmentBytes: segmentBytes, journalSegmentRecords: segmentRecords,
                journalRetainedBytes: nil, journalStorage: storage)
            sdk = try EngagementSDK(configuration: configuration)
        }

        /// Waits until the SDK processed everything posted so far, and the inputs those posted
        /// themselves (a read is a barrier behind everything posted before it).
        func processed() {
            for _ in 0..<3 { _ = sdk.liveProject }
        }

        /// Waits for the SDK to settle, then moves the clock on (running due timers) and
        /// settles again.
        func settle(advancing seconds: Double) async {
            await sdk.settle()
            guard seconds > 0 else { return }
            clock.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
            await sdk.settle()
        }

        /// Copies the journal's segment and index files into `output` (created).
        func copyJournal(to output: String) throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: output, withIntermediateDirectories: true)
            for name in try manager.contentsOfDirectory(atPath: directory + "/journal").sorted() where name.hasPrefix("segment-") {
                try manager.copyItem(atPath: directory + "/journal/" + name, toPath: output + "/" + name)
            }
        }

        func remove() {
            sdk.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// Answers every request at once with a 200 `{"code":"Success"}`, except requests to a held
/// endpoint: those are never answered (the crash story's disable).
final class GoldenTransport: Transport {
    private let state = Locked<(held: Set<String>, waiting: [@Sendable (TransportResult) -> Void])>(([], []))
    private static let success = TransportResult.response(status: 200, headers: ["content-type": "application/json"],
                                                          body: Data(#"{"code":"Success","msg":""}"#.utf8))

    /// Holds requests whose path ends with `endpoint`, from now on.
    func hold(_ endpoint: String) {
        state.withLock { _ = $0.held.insert(endpoint) }
    }

    /// Stops holding requests to `endpoint`, and answers every held request (of any endpoint).
    func release(_ endpoint: String) {
        let waiting = state.withLock { state in
            state.held.remove(endpoint)
            defer { state.waiting = [] }
            return state.waiting
        }
        for completion in waiting { completion(Self.success) }
    }

    func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        let path = request.url.path
        let held = state.withLock { state in
            guard state.held.contains(where: { path.hasSuffix($0) }) else { return false }
            state.waiting.append(completion)
            return true
        }
        if !held { completion(Self.success) }
    }
}
