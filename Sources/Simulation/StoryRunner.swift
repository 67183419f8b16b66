import Foundation
import Journal
import ReplayKit
import SDK

/// Runs a story in a fresh ``SimulationWorld``: launches the app, takes each step, lets the world
/// settle without faults, then audits the result (``StoryAudit``).
package enum StoryRunner {
    /// Runs `story`; `trace` hears each step as it is taken; `journal` receives the device's
    /// storage at the end (to write the journal out); `receiptLog` the simulated backend's
    /// receipt log at the end (``SimulatedBackend/receiptLog()``, docs/RECONCILE.md).
    /// `plantedDefect` breaks the engine's environment on purpose (a test of the checks).
    package static func run(_ story: Story, checksEveryInput: Bool = true, plantedDefect: PlantedDefect? = nil, trace: ((String) -> Void)? = nil,
                    journal: ((InMemoryStorage) -> Void)? = nil, receiptLog: (([ReceiptLine]) -> Void)? = nil) -> StoryOutcome {
        let world = SimulationWorld(seed: story.seed, profile: story.profile, checksEveryInput: checksEveryInput, plantedDefect: plantedDefect)
        world.startProcess()
        for (index, step) in story.steps.enumerated() {
            trace?("\(index + 1). [\(world.now.description)] \(step)")
            take(step, in: world)
        }
        // The calm end: a user who declined agrees again, so what waits for consent (a kept
        // disable) is sent and checked like the rest.
        world.process?.drainMailbox()
        if world.process?.state.consentDeclined == true { world.makeCall(.sdk(.setConsent(granted: true)), caller: 1) }
        world.settle()
        let audit = StoryAudit.run(world)
        journal?(world.storage.memory)
        receiptLog?(world.backend.receiptLog())
        return StoryOutcome(seed: story.seed, failures: world.failures + audit.failures, journalDigest: digest(of: world.storage.memory),
                            steps: story.steps.count, launches: world.launch, records: audit.records,
                            requestsReceived: world.backend.receipts.count, explained: audit.explained.merging(world.explained, uniquingKeysWith: +))
    }

    static func take(_ step: StoryStep, in world: SimulationWorld) {
        switch step {
        case .call(let caller, let call, let engineKeepsUp):
            world.makeCall(call, caller: UInt64(caller))
            if engineKeepsUp { world.advance(to: world.now) }
        case .wait(let milliseconds):
            world.advance(to: world.now.advancedSaturating(milliseconds: milliseconds))
        case .notification(let name):
            world.notify(name)
        case .expireTokens(let project):
            world.backend.expireTokens(of: SimulatedProject.catalog[project % SimulatedProject.catalog.count].fingerprint)
        case .crash(let tail, let after, let relaunchOn):
            world.crash(tail: tail, relaunchMilliseconds: after)
            if let relaunchOn { world.makeCall(.initialize(project: relaunchOn), caller: 1) }
        case .shutdown(let after, let relaunchOn):
            world.shutdown(relaunchMilliseconds: after)
            if let relaunchOn { world.makeCall(.initialize(project: relaunchOn), caller: 1) }
        case .offline:
            world.setOffline(true)
        case .online:
            world.setOffline(false)
        case .networkReachable:
            world.networkBecameReachable()
        case .slowNetwork(let milliseconds):
            world.setSlowNetwork(milliseconds: milliseconds)
        case .fetchAnswersAtReset(let on):
            world.holdFetchAnswersForReset(on)
        case .jumpWallClock(let milliseconds):
            world.jumpWallClock(byMilliseconds: milliseconds)
        case .authServer(let signedIn, let refuses):
            world.authSignedIn = signedIn.map(Set.init)
            world.authRefusesSignedOut = refuses
        case .tokenLifetime(let milliseconds):
            world.backend.tokenLifetimeMilliseconds = milliseconds
        case .lossyNetwork(let on):
            world.setLossyNetwork(on)
        }
    }

    /// Writes the journal files of `storage` into `directory` (created; must not hold segments).
    /// Each file is created new (`O_EXCL`: one that exists is an error, never overwritten) and
    /// written without a sync or a rename: what is kept is a copy for reading, not a journal a
    /// crash must find whole, and a sync per file made `--keep` of 10,000 stories wait on the
    /// disk for most of its time.
    package static func write(_ storage: InMemoryStorage, to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in storage.fileNames(in: SimulationWorld.journalDirectory) {
            try writeNewFile(storage.bytes(of: SimulationWorld.journalDirectory + "/" + name) ?? [], at: directory + "/" + name)
        }
    }

    /// The name of a story's receipt log in its journal directory, as `replay demo` names the
    /// demo's (the journal's reader ignores it).
    package static let receiptLogName = "received.ndjson"

    /// Writes `lines` as a receipt log (NDJSON, one line each) at `path`, which must not exist.
    package static func write(receiptLog lines: [ReceiptLine], to path: String) throws {
        var text = ""
        for line in lines {
            text += line.json
            text += "\n"
        }
        try writeNewFile(Array(text.utf8), at: path)
    }

    /// Creates `path` (mode 0600; ``SimulationOutputError/exists(_:)`` when it exists) holding `bytes`.
    private static func writeNewFile(_ bytes: [UInt8], at path: String) throws {
        let file: any WritableFile
        do { file = try PosixStorage().createFile(at: path) } catch {
            throw FileManager.default.fileExists(atPath: path) ? SimulationOutputError.exists(path) : SimulationOutputError.unwritable(path)
        }
        do { try bytes.withUnsafeBytes { try file.append($0) } } catch { throw SimulationOutputError.unwritable(path) }
    }

    /// FNV-1a 64 over every file of the journal directory (name, then bytes), in name order.
    static func digest(of storage: InMemoryStorage) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        for name in storage.fileNames(in: SimulationWorld.journalDirectory) {
            mix(name.utf8)
            mix(storage.bytes(of: SimulationWorld.journalDirectory + "/" + name) ?? [])
        }
        return hash
    }
}
