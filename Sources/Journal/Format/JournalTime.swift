import Foundation

/// A record's timestamp: microseconds since 1970-01-01T00:00:00Z.
///
/// The journal never reads a clock for record times: the appender supplies them, so a journal
/// written on a manual clock is byte-for-byte reproducible.
public struct JournalTime: Sendable, Hashable, Comparable {
    public var microsecondsSince1970: Int64

    public init(microsecondsSince1970: Int64) {
        self.microsecondsSince1970 = microsecondsSince1970
    }

    /// The time of `date`, truncated to the microsecond.
    public init(_ date: Date) {
        microsecondsSince1970 = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    public var date: Date {
        Date(timeIntervalSince1970: Double(microsecondsSince1970) / 1_000_000)
    }

    public static func < (lhs: JournalTime, rhs: JournalTime) -> Bool {
        lhs.microsecondsSince1970 < rhs.microsecondsSince1970
    }
}

extension JournalTime: CustomStringConvertible {
    /// ISO 8601 with microseconds, in UTC: `2026-11-29T17:36:04.123456Z`.
    public var description: String {
        let text = String(unsafeUninitializedCapacity: Self.textCount) { text in writeText(to: text.baseAddress!) ?? 0 }
        return text.isEmpty ? paddedDescription : text
    }

    /// How many bytes ``writeText(to:)`` writes: `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    public static let textCount = 27

    /// Writes ``description``'s ``textCount`` bytes at `text` (room for them) and returns how
    /// many; nil, and nothing written, for a year outside 0…9999 (whose text is longer).
    public func writeText(to text: UnsafeMutablePointer<UInt8>) -> Int? {
        let seconds = microsecondsSince1970.floorDivided(by: 1_000_000)
        let days = seconds.floorDivided(by: 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else { return nil }
        let micros = microsecondsSince1970.floorModulo(by: 1_000_000)
        let secondOfDay = seconds.floorModulo(by: 86_400)
        // Written digit by digit (a line of every record exported).
        var count = 0
        func put(_ value: Int64, _ width: Int) {
            var rest = value
            for index in stride(from: width - 1, through: 0, by: -1) {
                text[count + index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            count += width
        }
        func put(_ character: Unicode.Scalar) {
            text[count] = UInt8(ascii: character)
            count += 1
        }
        put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
        put(secondOfDay / 3600, 2); put(":"); put(secondOfDay / 60 % 60, 2); put(":"); put(secondOfDay % 60, 2)
        put("."); put(micros, 6); put("Z")
        return count
    }

    /// The same text for any year: each number zero-padded to its width as text.
    private var paddedDescription: String {
        let seconds = microsecondsSince1970.floorDivided(by: 1_000_000)
        let micros = microsecondsSince1970.floorModulo(by: 1_000_000)
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds.floorModulo(by: 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        let digits = { (value: Int64, width: Int) -> String in
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T"
            + "\(digits(secondOfDay / 3600, 2)):\(digits(secondOfDay / 60 % 60, 2)):\(digits(secondOfDay % 60, 2))"
            + ".\(digits(micros, 6))Z"
    }

    /// Proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted.floorModulo(by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of ``floorDivided(by:)``, in `0..<divisor` (a positive divisor): taken
    /// from `%`, not as `self - quotient * divisor`, which overflows near `Int64.min`.
    fileprivate func floorModulo(by divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
