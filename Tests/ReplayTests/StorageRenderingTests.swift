import Foundation
import Simulation
import Testing
@testable import SDK

/// A support engineer sees what the storage did: `timeline` words a launch whose files opened
/// late and a key the keyring could not file, `diagnose` names both in the switch they happened
/// during (text and JSON), and the report lists them among its findings.
@Suite("replay shows locked storage and keyring failures", .timeLimit(.minutes(1)))
struct StorageRenderingTests {
    @Test("timeline, diagnose and the report show storageWasUnavailable and keyringWriteFailed during a switch")
    func timelineDiagnoseReport() throws {
        let store = EngineStore()
        store.initialize(.A)
        store.call(.setEmail("ada@example.com"))
        store.settle()
        store.refuseKeyringWrites("create keyring.tmp: ENOSPC")
        store.switchProject(to: .B)
        store.relaunchAfterLockedStorage(reason: "open journal: EPERM", waitedMilliseconds: 12_500, attempts: 2, initializing: .B,
                                         held: [.track(event: "held", dataFields: nil)])
        store.settle()
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = directory + "/journal"
        try store.writeJournal(to: journal)

        let timeline = ReplayHarness.run(["timeline", journal])
        #expect(timeline.status == 0, "\(timeline.error)")
        for text in ["keyringWriteFailed the keyring could not file project \(store.fingerprint(.B))'s key: create keyring.tmp: ENOSPC; a later launch may not find it",
                     "storageWasUnavailable the SDK's files could not be opened for 12.5 s (2 failed attempt(s), the last: open journal: EPERM): "
                         + "2 call(s) held in memory and journaled next, in order"] {
            #expect(timeline.out.contains(text), "\(text) in \(timeline.out)")
        }

        let diagnosis = ReplayHarness.run(["diagnose", "--switch", "1", journal])
        #expect(diagnosis.status == 0, "\(diagnosis.error)")
        #expect(diagnosis.out.contains("storage"), "\(diagnosis.out)")
        #expect(diagnosis.out.contains("the keyring could not file project \(store.fingerprint(.B))'s key"), "\(diagnosis.out)")

        let json = ReplayHarness.run(["diagnose", "--switch", "1", "--json", journal])
        #expect(json.out.contains(#""storage":[{"at":"#), "\(json.out)")

        let page = directory + "/report.html"
        let report = ReplayHarness.run(["report", "-o", page, journal])
        #expect(report.status == 0, "\(report.error)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#""kind":"keyringWriteFailed","text":"the keyring could not file project"#), "the report's findings name the keyring failure")
        #expect(html.contains(#""kind":"storageWasUnavailable""#))
    }
}
