import Journal

/// A point in a journal named on the command line: a sequence number or an ISO-8601 time.
///
/// A record is *at or before* a moment when its sequence number is at most the named one, or
/// its timestamp is at most the named time.
package enum Moment: Equatable, Sendable {
    case sequence(UInt64)
    case time(JournalTime)

    /// `1234` is a sequence number; `2025-11-24T16:00:01Z` (see ``ISOTime``) is a time.
    package static func parse(_ text: String) -> Moment? {
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return UInt64(text).map(Moment.sequence)
        }
        return ISOTime.parse(text).map(Moment.time)
    }

    /// How usage errors describe what is expected.
    package static let expectation = "a sequence number or an ISO-8601 time such as 2025-11-24T16:00:01Z"

    /// Whether `later` names a point before this one, when both are of the same kind (two
    /// sequence numbers, or two times); a sequence number and a time cannot be ordered unread.
    package func isAfter(_ later: Moment) -> Bool {
        switch (self, later) {
        case (.sequence(let first), .sequence(let last)): first > last
        case (.time(let first), .time(let last)): first > last
        case (.sequence, .time), (.time, .sequence): false
        }
    }

    /// Whether the record `(sequence, time)` is at or before this moment.
    package func includes(sequence: UInt64, time: JournalTime) -> Bool {
        switch self {
        case .sequence(let last): sequence <= last
        case .time(let last): time <= last
        }
    }
}

extension Moment: CustomStringConvertible {
    package var description: String {
        switch self {
        case .sequence(let sequence): "sequence \(sequence)"
        case .time(let time): time.description
        }
    }
}
