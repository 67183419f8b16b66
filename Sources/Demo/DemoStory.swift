import Dispatch
import Foundation
import Journal
import Sandbox
import SDK
import SDKTesting

/// The scripted two-region story `replay demo` runs: a real SDK against a loopback
/// ``SandboxBackend``, on a ``ManualClock``, written to a journal that is the same on every run
/// (apart from the journal's random id).
///
/// What happens:
/// 1. the SDK initializes on the US project, identifies the user, registers the push token,
///    tracks an event, a purchase and a profile update;
/// 2. the app switches to EU, twice in a row (a double tap: one teardown, both callbacks).
///    While the US `disableDevice` is held on the wire (a ``ResponseHold``), the app makes calls:
///    `setEmail`, `track` and `registerToken` wait behind the gate; a push open runs inline on
///    US and, once the disable is answered, is delivered there;
/// 3. after the teardown's clear step (while the module hook of the release step is pending),
///    a late `setAttributionInfo` for US is refused;
/// 4. the switch lands on EU: the held calls replay there, both callbacks run;
/// 5. the app switches back to US. The journal's `fdatasync` for the EU disable is held (a
///    ``SyncHold``) while the manual clock passes the 2 s durability bound: the switch lands
///    with a warning, the disable becomes durable afterwards, and the callback re-identifies
///    the user on US.
///
/// Why it is reproducible: every input reaches the SDK's mailbox in an order the story fixes.
/// Answers from the network are handed over by a ``LockstepTransport`` from the story's own
/// thread, oldest first; the story waits for each effect that runs on its own (a module hook,
/// the callback queue, the journal's group-commit thread) before making its next call.
package final class DemoStory {
    /// What the story produced.
    package struct Outcome: Sendable {
        /// The journal directory.
        package var journal: String
        /// The sandbox's receipt log (docs/RECONCILE.md), written beside the journal's segments
        /// in its directory: `replay reconcile JOURNAL --received JOURNAL/received.ndjson`.
        package var receiptLog: String
        /// The projects by name (`us`, `eu`), with their fingerprints.
        package var projects: [(name: String, fingerprint: ProjectFingerprint)]
        /// The endpoints each sandbox project answered with a 2xx, in arrival order (a held
        /// request counts once released and answered).
        package var received: [String: [String]]
        /// The results the switch callbacks reported, in the order they ran.
        package var switchResults: [SwitchResult]
    }

    enum Failure: Error, CustomStringConvertible {
        case setup(String)
        case output(String)

        var description: String {
            switch self {
            case .setup(let reason): "the demo could not start: \(reason)"
            case .output(let reason): "the demo could not write its journal: \(reason)"
            }
        }
    }

    /// The receipt log's file name in the output directory.
    package static let receiptLogName = "received.ndjson"

    static let usKey = "demo-us-key-0001"
    static let euKey = "demo-eu-key-0002"
    /// 2025-11-24T16:00:00Z.
    static let start = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)

    private let sandbox: SandboxBackend
    private let clock: ManualClock
    private let transport: LockstepTransport
    private let syncHold = SyncHold()
    private let module = PausableModule(name: BuiltInModules.push)
    private let callbacks = DispatchQueue(label: "replay-demo.callbacks")
    private let workDirectory: String
    private let sdk: EngagementSDK
    private let us: Project
    private let eu: Project
    /// Request paths whose answers are not handed over yet.
    private var heldPaths: Set<String> = []

    private init(workDirectory: String) throws {
        let clock = ManualClock(start: DemoStory.start)
        self.clock = clock
        // The backend's clock is the story's: its receipt log's times and the journal's agree.
        sandbox = try SandboxBackend(projects: [
            SandboxProject(name: "us", apiKey: Self.usKey, region: "us"),
            SandboxProject(name: "eu", apiKey: Self.euKey, region: "eu"),
        ], clock: { Date(timeIntervalSince1970: Double(clock.wallClock.microsecondsSince1970) / 1_000_000) })
        guard let us = Project(apiKey: Self.usKey, label: "US", config: ProjectConfig(region: .us)),
              let eu = Project(apiKey: Self.euKey, label: "EU", config: ProjectConfig(region: .eu)) else {
            throw Failure.setup("the demo's API keys were refused")
        }
        self.us = us
        self.eu = eu
        self.workDirectory = workDirectory
        transport = LockstepTransport(sandboxRoot: sandbox.baseURL(region: "us"))
        guard let usEndpoint = URL(string: "http://\(LockstepTransport.demoHost)/us/api/"),
              let euEndpoint = URL(string: "http://\(LockstepTransport.demoHost)/eu/api/") else {
            throw Failure.setup("the demo's endpoints are not URLs")
        }
        let ids = SequentialCallIDs()
        let configuration = SDKConfiguration(
            storageDirectory: workDirectory, clock: clock, transport: transport, makeCallID: { ids.next() },
            callbackQueue: callbacks, modules: [module],
            regionEndpoints: RegionEndpoints(us: usEndpoint, eu: euEndpoint),
            // Durability through the group-commit thread, so the SyncHold can make it late;
            // groups are cut by size and by flushes only.
            groupCommit: GroupCommit(maxRecords: 64, maxDelay: .seconds(3600), synchronizesEachGroup: false),
            journalRetainedBytes: nil, journalStorage: FailingSyncStorage(hold: syncHold))
        sdk = try EngagementSDK(configuration: configuration)
    }

    /// Runs the story and leaves its journal in `output` (created; it must not exist or be empty).
    static func run(into output: String) async throws -> Outcome {
        try prepare(output)
        let work = NSTemporaryDirectory() + "replay-demo-work-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: work) }
        let story = try DemoStory(workDirectory: work)
        let results = try await story.play()
        story.sdk.shutdown()
        story.transport.invalidate()
        try move(journalOf: work, to: output)
        let receiptLog = output + "/" + receiptLogName
        do {
            try story.sandbox.writeReceiptLog(to: URL(fileURLWithPath: receiptLog))
        } catch {
            throw Failure.output("\(receiptLog): \(error.localizedDescription)")
        }
        let received = Dictionary(uniqueKeysWithValues: ["us", "eu"].map { name in
            (name, story.sandbox.requests(project: name).filter { ($0.status ?? 0) / 100 == 2 }.compactMap(\.endpoint))
        })
        story.sandbox.shutdown()
        return Outcome(journal: output, receiptLog: receiptLog, projects: [("us", story.us.fingerprint), ("eu", story.eu.fingerprint)],
                       received: received, switchResults: results)
    }

    // MARK: - The story

    private func play() async throws -> [SwitchResult] {
        var results: [SwitchResult] = []
        processed()

        // 1. On US: identify, register for push, track, purchase.
        advance(seconds: 1)
        sdk.initialize(us, completion: nil)
        advance(seconds: 0.5)
        sdk.setEmail("ada@example.com", completion: nil)
        advance(seconds: 0.5)
        sdk.registerToken("apns-7f3c9a2e", completion: nil)
        await quiesce()
        advance(seconds: 2)
        sdk.track("app_open", dataFields: ["source": "icon"], completion: nil)
        advance(seconds: 3)
        sdk.trackPurchase(total: 42.5, items: [CommerceItem(id: "beans-1", name: "Espresso beans", price: 21.25, quantity: 2)],
                          dataFields: ["coupon": "WELCOME10"], completion: nil)
        advance(seconds: 1)
        sdk.updateUser(dataFields: ["favoriteRoast": "dark", "city": "Lyon"], completion: nil)
        await quiesce()

        // 2. Switch to EU, tapped twice, while the US disable is held on the wire.
        advance(seconds: 10)
        let disableHold = ResponseHold()
        sandbox.inject(.hold(disableHold), matching: .endpoint("users/disableDevice"))
        heldPaths = ["users/disableDevice"]
        syncHold.arm()
        module.arm()
        let first = OneShot<SwitchResult>()
        let second = OneShot<SwitchResult>()
        sdk.switchProject(to: eu) { first.fulfil($0) }
        sdk.switchProject(to: eu) { second.fulfil($0) }
        await syncHold.arrivals.wait(untilAtLeast: 1)
        processed()
        advance(seconds: 0.4)
        sdk.setEmail("ada@example.eu", completion: nil)
        sdk.track("cart_viewed", dataFields: ["items": 2], completion: nil)
        sdk.registerToken("apns-7f3c9a2e", completion: nil)
        sdk.trackPushOpen(PushOpen(campaignID: 1234, templateID: 5678, messageID: "msg-us-1", appAlreadyRunning: true), completion: nil)
        processed()
        _ = await disableHold.waitUntilHeld(count: 1)
        advance(seconds: 0.6)
        disableHold.release()
        heldPaths = []
        await quiesce()
        // The disable becomes durable 1.4 s into the switch, within the 2 s bound.
        advance(seconds: 0.4)
        syncHold.release()
        await module.arrivals.wait(untilAtLeast: 1)

        // 3. The clear steps ran; the release step waits for the module. A late attribution
        //    write for US is refused.
        sdk.setAttributionInfo(AttributionInfo(campaignID: 1234, templateID: 5678, messageID: "msg-us-1"), completion: nil)
        processed()
        advance(seconds: 0.2)
        module.release()

        // 4. Lands on EU: held calls replay there; both callbacks run.
        results.append(await first.value)
        results.append(await second.value)
        await quiesce()
        advance(seconds: 30)
        sdk.track("eu_browse", completion: nil)
        await quiesce()

        // 5. Back to US; the EU disable is slow to become durable.
        advance(seconds: 5)
        syncHold.arm()
        module.arm()
        let back = OneShot<SwitchResult>()
        let sdk = sdk
        sdk.switchProject(to: us) { result in
            // The app re-identifies the user from the callback: it lands on US.
            sdk.setEmail("ada@example.com", completion: nil)
            back.fulfil(result)
        }
        await syncHold.arrivals.wait(untilAtLeast: 2)
        processed()
        advance(seconds: 0.3)
        sdk.track("checkout_started", completion: nil)
        processed()
        // The 2 s bound passes: the teardown goes on without the durable disable.
        advance(seconds: 1.7)
        await module.arrivals.wait(untilAtLeast: 2)
        advance(seconds: 0.2)
        module.release()
        results.append(await back.value)
        await quiesce()
        advance(seconds: 0.5)
        syncHold.release()
        await sdk.settle()
        advance(seconds: 1)
        sdk.flush(completion: nil)
        await sdk.settle()
        return results
    }

    // MARK: - Keeping the mailbox's order fixed

    /// Moves the clock on, one due timer at a time, letting the SDK process each input at the
    /// time it was posted (an input is stamped when the SDK takes it, so the clock must not run
    /// ahead of the mailbox).
    private func advance(seconds: Double) {
        processed()
        let target = JournalTime(microsecondsSince1970: clock.now().microsecondsSince1970 + Int64((seconds * 1_000_000).rounded()))
        while let due = clock.nextDue, due <= target {
            clock.advance(to: due)
            processed()
        }
        clock.advance(to: target)
        processed()
    }

    /// Returns once the SDK processed everything posted before, and what those inputs posted
    /// to its mailbox themselves (a read is a barrier behind everything posted so far; a
    /// synchronous module hook posts its completion while the SDK handles the input that
    /// started it, so after the first barrier; the next barriers let such chains finish).
    private func processed() {
        for _ in 0..<3 { _ = sdk.liveProject }
    }

    /// Runs what is queued on the callback queue so far (its completions, and the notice that
    /// a switch's callbacks ran, which the SDK waits for before the next switch).
    private func drainCallbacks() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            callbacks.async { continuation.resume() }
        }
    }

    /// Hands the SDK every network answer, oldest first, each once the SDK processed the one
    /// before, until nothing is left but what ``heldPaths`` keeps back.
    private func quiesce() async {
        while true {
            for _ in 0..<2 {
                await drainCallbacks()
                processed()
            }
            guard let exchange = transport.takeNext(holding: heldPaths) else { return }
            await exchange.deliver()
        }
    }

    // MARK: - Files

    private static func prepare(_ output: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure.output("\(output) exists and is not a directory") }
            let contents = (try? manager.contentsOfDirectory(atPath: output)) ?? []
            guard contents.isEmpty else { throw Failure.output("\(output) is not empty") }
        } else {
            do {
                try manager.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw Failure.output("\(output): \(error.localizedDescription)")
            }
        }
    }

    private static func move(journalOf work: String, to output: String) throws {
        let manager = FileManager.default
        let journal = work + "/journal"
        do {
            for name in try manager.contentsOfDirectory(atPath: journal).sorted() where name.hasPrefix("segment-") {
                try manager.moveItem(atPath: journal + "/" + name, toPath: output + "/" + name)
            }
        } catch {
            throw Failure.output("\(output): \(error.localizedDescription)")
        }
    }
}
