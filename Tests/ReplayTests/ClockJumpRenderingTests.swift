import Foundation
import Simulation
import Testing
@testable import SDK

/// A support engineer sees a wall-clock jump: `timeline` words it, `diagnose` names it in the
/// switch it happened during, in text and JSON.
@Suite("replay shows clock jumps", .timeLimit(.minutes(1)))
struct ClockJumpRenderingTests {
    @Test("timeline, diagnose and the report show the device's clock set back an hour during a switch")
    func timelineAndDiagnose() throws {
        let story = try SwitchStoryJournal { store in
            store.jumpWallClock(byMilliseconds: -3_600_000)
        }
        defer { story.remove() }
        let journal = story.journal

        let timeline = ReplayHarness.run(["timeline", "--kind", "clockJumped", journal])
        #expect(timeline.status == 0, "\(timeline.error)")
        #expect(timeline.out.contains("the device's clock jumped -1 h 0 min"), "\(timeline.out)")

        let diagnosis = ReplayHarness.run(["diagnose", "--switch", "1", journal])
        #expect(diagnosis.status == 0, "\(diagnosis.error)")
        #expect(diagnosis.out.contains("clock jumps"), "\(diagnosis.out)")
        #expect(diagnosis.out.contains("the device's clock jumped -1 h 0 min"))

        let json = ReplayHarness.run(["diagnose", "--switch", "1", "--json", journal])
        #expect(json.out.contains(#""clock_jumps":[{"at":"#), "\(json.out)")
        #expect(json.out.contains(#""jump_us":-3600"#))

        let page = story.directory + "/report.html"
        let report = ReplayHarness.run(["report", "-o", page, journal])
        #expect(report.status == 0, "\(report.error)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#""kind":"clock jumped","text":"the device's clock jumped -1 h 0 min"#), "the report's findings name the jump")
    }
}
