import Journal

/// Parses the ISO-8601 times `replay` accepts on its command line: a UTC date and time such as
/// `2025-11-24T16:00:01Z`, with an optional fraction (`16:00:01.25Z`, up to nanoseconds,
/// truncated to the microsecond) and `Z` or a numeric offset (`+01:00`, `-0530`).
enum ISOTime {
    /// The time `text` names, or nil when it is not such a time.
    static func parse(_ text: String) -> JournalTime? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The time the UTF-8 bytes `utf8` name, read in place (a receipt log's `received_at`), or
    /// nil when they are not such a time.
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> JournalTime? {
        var scanner = Scanner(utf8)
        guard let year = scanner.digits(exactly: 4), scanner.take("-"),
              let month = scanner.digits(exactly: 2), scanner.take("-"),
              let day = scanner.digits(exactly: 2), scanner.take("T") || scanner.take(" ") || scanner.take("t"),
              let hour = scanner.digits(exactly: 2), scanner.take(":"),
              let minute = scanner.digits(exactly: 2), scanner.take(":"),
              let second = scanner.digits(exactly: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var micros: Int64 = 0
        if scanner.take(".") || scanner.take(",") {
            var digits = 0
            while let digit = scanner.digit() {
                digits += 1
                guard digits <= 9 else { return nil }
                if digits <= 6 { micros = micros * 10 + digit }
            }
            guard digits > 0 else { return nil }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        var offsetSeconds: Int64 = 0
        if scanner.take("Z") || scanner.take("z") {
            offsetSeconds = 0
        } else if let sign: Int64 = scanner.take("+") ? 1 : scanner.take("-") ? -1 : nil {
            guard let hours = scanner.digits(exactly: 2) else { return nil }
            _ = scanner.take(":")
            guard let minutes = scanner.digits(exactly: 2), hours < 24, minutes < 60 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return JournalTime(microsecondsSince1970: seconds * 1_000_000 + micros)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads ASCII characters and digits off the front of a byte array.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { return nil }
            defer { position += 1 }
            return Int64(bytes[position] - UInt8(ascii: "0"))
        }

        mutating func digits(exactly count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
