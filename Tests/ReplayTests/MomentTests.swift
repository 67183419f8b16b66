import Journal
import Testing
@testable import ReplayKit

@Suite("sequence numbers and ISO-8601 times on the command line", .timeLimit(.minutes(3)))
struct MomentTests {
    @Test("times with and without fractions and offsets", arguments: [
        ("2025-11-24T16:00:01Z", 1_764_000_001_000_000),
        ("2025-11-24T16:00:01.5Z", 1_764_000_001_500_000),
        ("2025-11-24T16:00:01.123456Z", 1_764_000_001_123_456),
        ("2025-11-24T16:00:01.123456789Z", 1_764_000_001_123_456),
        ("2025-11-24T17:00:01+01:00", 1_764_000_001_000_000),
        ("2025-11-24T10:30:01-0530", 1_764_000_001_000_000),
        ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000_000),
        ("1969-12-31T23:59:59Z", -1_000_000),
    ] as [(String, Int64)])
    func times(text: String, micros: Int64) {
        #expect(Moment.parse(text) == .time(JournalTime(microsecondsSince1970: micros)))
    }

    @Test("the ISO form replay prints reads back", arguments: [0, 1_764_000_001_123_456, -86_400_000_000 * 400])
    func roundTrip(micros: Int64) {
        let time = JournalTime(microsecondsSince1970: micros)
        #expect(ISOTime.parse(time.description) == time)
    }

    @Test("not moments", arguments: ["", "-1", "12a", "2025-11-24", "2025-11-24T16:00Z", "2025-13-01T00:00:00Z",
                                     "2025-02-30T00:00:00Z", "2025-11-24T24:00:00Z", "2025-11-24T16:00:01", "2025-11-24T16:00:01.Z",
                                     "2025-11-24T16:00:01.1234567890Z", "2025-11-24T16:00:01Zjunk", "99999999999999999999999"])
    func rejected(text: String) {
        #expect(Moment.parse(text) == nil)
    }

    @Test("digits are a sequence number")
    func sequence() {
        #expect(Moment.parse("1234") == .sequence(1234))
        #expect(Moment.sequence(5).includes(sequence: 5, time: JournalTime(microsecondsSince1970: 0)))
        #expect(!Moment.sequence(5).includes(sequence: 6, time: JournalTime(microsecondsSince1970: 0)))
    }
}
