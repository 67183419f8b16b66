import Foundation
import Journal
import Testing
@testable import SDKCore

/// The id a call carries on the wire: its text is its 32 lowercase hex digits and reads back;
/// it is stable per stream and call, and apart across streams and calls.
@Suite("Wire call ids", .timeLimit(.minutes(1)))
struct WireCallIDTests {
    @Test("the text is the words' lowercase hex, every digit, and reads back")
    func hexText() throws {
        let samples: [(UInt64, UInt64)] = [(0, 0), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210),
                                           (0x19C3_CB28_0AEE_BFA6, 0x48CA_902B_4339_5151), (0xA0A0_0909_FAFA_1010, 1)]
        for (high, low) in samples {
            let id = WireCallID(high: high, low: low)
            let expected = String(format: "%016llx%016llx", high, low)
            #expect(id.hex == expected)
            #expect(WireCallID(hex: expected) == id)
        }
        #expect(WireCallID(hex: "0123456789ABCDEF0123456789abcdef") == nil, "uppercase is not its text")
    }

    @Test("the same stream and call give the same id; another stream, call or task gives another")
    func stableAndApart() {
        let stream = UUID(uuidString: "5C0F1E2D-3B4A-4958-8776-A5B4C3D2E1F0")!
        let other = UUID(uuidString: "5C0F1E2D-3B4A-4958-8776-A5B4C3D2E1F1")!
        let calls = (1...1_000).map { CallID(high: 0x4000, low: 0x8000_0000_0000_0000 | UInt64($0)) }
        let ids = calls.map { WireCallID(stream: stream, call: $0) }
        #expect(ids == calls.map { WireCallID(stream: stream, call: $0) })
        let elsewhere = calls.map { WireCallID(stream: other, call: $0) }
        #expect(Set(ids).count == calls.count)
        #expect(Set(ids).isDisjoint(with: elsewhere))
        let task = WireCallID(stream: stream, task: TaskID(1), createdAt: JournalTime(microsecondsSince1970: 1))
        #expect(!ids.contains(task))
    }

    @Test("streams and calls whose ids vary together (a simulator's seeds, a test's counters) still get ids apart")
    func structuredStreamsStayApart() {
        func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
            withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
        }
        // Stream i and call i differ from stream 0 and call 0 by the same bits of their high
        // words: a derivation that combined the raw words first would give them all one id.
        let ids = (0..<1_000 as Range<UInt64>).map { index in
            WireCallID(stream: uuid(0x4000_0000_0000_4000 ^ index << 20, 0x8000_0000_0000_0001),
                       call: CallID(high: 0x4000 ^ index << 20, low: 0x8000_0000_0000_0007))
        }
        #expect(Set(ids).count == ids.count)
        let tasks = (0..<1_000 as Range<UInt64>).map { index in
            WireCallID(stream: uuid(0x4000_0000_0000_4000 ^ index, 0x8000_0000_0000_0001),
                       task: TaskID(1 + index), createdAt: JournalTime(microsecondsSince1970: 1_764_000_000_000_000))
        }
        #expect(Set(tasks).count == tasks.count)
    }
}
