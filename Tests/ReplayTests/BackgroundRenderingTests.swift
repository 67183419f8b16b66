import Foundation
import Simulation
import Testing
@testable import SDK

/// A support engineer sees what the SDK did with the app's background time: `timeline` words each
/// step, `diagnose` names them in the switch they happened during (text and JSON), and the
/// report lists them among its findings.
@Suite("replay shows background time", .timeLimit(.minutes(1)))
struct BackgroundRenderingTests {
    @Test("timeline, diagnose and the report show a background task that ran during a switch and was taken back by the system")
    func timelineDiagnoseReport() throws {
        let story = try SwitchStoryJournal { store in
            let time = BackgroundTime(budget: .seconds(30)) {}
            store.enterBackground(time)
            time.expire()
        }
        defer { story.remove() }
        let journal = story.journal

        let timeline = ReplayHarness.run(["timeline", journal])
        #expect(timeline.status == 0, "\(timeline.error)")
        for text in ["backgroundTaskBegan the app went to the background: task 1 granted 30 s",
                     "backgroundTaskExpired the system took task 1's time back before the SDK ended it",
                     "backgroundFlushFinished task 1's flush:",
                     "backgroundTaskEnded task 1 given back to the system: the system took its time back"] {
            #expect(timeline.out.contains(text), "\(text) in \(timeline.out)")
        }

        let diagnosis = ReplayHarness.run(["diagnose", "--switch", "1", journal])
        #expect(diagnosis.status == 0, "\(diagnosis.error)")
        #expect(diagnosis.out.contains("background"), "\(diagnosis.out)")
        #expect(diagnosis.out.contains("the system took task 1's time back"), "\(diagnosis.out)")

        let json = ReplayHarness.run(["diagnose", "--switch", "1", "--json", journal])
        #expect(json.out.contains(#""background":[{"at":"#), "\(json.out)")

        let page = story.directory + "/report.html"
        let report = ReplayHarness.run(["report", "-o", page, journal])
        #expect(report.status == 0, "\(report.error)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#""kind":"backgroundTaskExpired","text":"the system took task 1's time back"#), "the report's findings name the expiry")
        #expect(html.contains(#""kind":"backgroundTaskEnded""#))
    }
}
