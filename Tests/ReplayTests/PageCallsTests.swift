import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `PageCalls`: a notable call's drawing, kept in a temporary file by a page's pass, reads back
/// as it was kept, whatever its texts hold.
@Suite("a page's kept calls", .timeLimit(.minutes(1)))
struct PageCallsTests {
    @Test("a drawing reads back as kept: texts with quotes, escapes and any script, a call without its record, the audit row")
    func drawingsReadBack() throws {
        let page = PageCalls()
        let received = ReceivedCall(id: CallID(UUID()), caller: 1, call: .setEmail("a@example.com"))
        var row = AuditRow(call: received.id, name: .setEmail, received: (7, JournalTime(microsecondsSince1970: 5)),
                           madeAt: JournalTime(microsecondsSince1970: 3), liveAtCall: nil)
        row.gate = [.decided(.queued(switch: SwitchID(1), position: 0, call: received))]
        let texts: [(String, String?)] = [
            (#"setEmail "a@example.com""#, #"{"kind":"callReceived","note":"\"quoted\"\n"}"#),
            ("track \"Überweisung 🚀\" {a, b}", nil),
            ("", ""),
        ]
        for (summary, factJSON) in texts { try page.keep(row, summary: summary, factJSON: factJSON) }
        #expect(page.notable.count == texts.count)
        for (key, (summary, factJSON)) in zip(page.notable, texts) {
            let drawing = try page.drawing(of: key)
            #expect(drawing.summary == summary)
            #expect(drawing.factJSON == factJSON)
            #expect(drawing.statusText == row.statusText)
            #expect(drawing.audit == row.json)
            #expect(drawing.name == "setEmail")
        }
    }

    @Test("a drawing cut short is an error that names the temporary file, not a drawing")
    func cutShort() throws {
        let page = PageCalls()
        let row = AuditRow(call: CallID(UUID()), name: .flush, received: nil, madeAt: JournalTime(microsecondsSince1970: 0), liveAtCall: nil)
        try page.keep(row, summary: "flush", factJSON: nil)
        var key = try #require(page.notable.first)
        for length in [0, 3, 6, 12] {
            key.length = UInt32(length)
            let error = #expect(throws: SpillError.self) { try page.drawing(of: key) }
            #expect(error.map { "\($0)" }?.contains("report-marks") == true, "\(String(describing: error))")
        }
    }
}
