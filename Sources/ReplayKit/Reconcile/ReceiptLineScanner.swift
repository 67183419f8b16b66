import Foundation
import Journal
import SDK

/// Reads a receipt-log line (docs/RECONCILE.md) by the schema's members, straight from its
/// bytes: no JSON tree is built, ids, fingerprint, time and status are decoded in place, and
/// the strings a log repeats (project, region, endpoint, idempotency key, user) are made once
/// and reused while they repeat.
///
/// It reads the plain form a backend writes: one object, member names and string values
/// without escapes and in ASCII, other members' values strings, `true`, `false`, `null` or
/// short integers, each member once. For anything else (an escape, a nested value, a
/// duplicated member, a fraction, a malformed line) it hands the line back, unread, to the
/// general path (``ReceiptLine/init(parsingJSON:)``), which reads every JSON line and names
/// what is wrong: what the scanner accepts, the general path reads as the same receipt (the
/// fuzz target `fuzz-receipts` checks it), so it changes no verdict and no message.
///
/// Not thread-safe (its string cache): one per reader.
struct ReceiptLineScanner {
    /// Strings made from bytes, reused while the same bytes come again.
    private struct Cached {
        var bytes: [UInt8] = []
        var text = ""

        mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            if !self.bytes.elementsEqual(bytes) {
                self.bytes = Array(bytes)
                text = String(decoding: bytes, as: UTF8.self)
            }
            return text
        }
    }

    private var region = Cached()
    private var endpoint = Cached()
    private var idempotencyKey = Cached()
    private var user = Cached()
    private var projectBytes: [UInt8] = []
    private var project: ProjectFingerprint?

    /// The members the scanner decodes (a bit each, to see each once).
    private enum Member: UInt16 {
        case project = 1, region = 2, endpoint = 4, callID = 8, idempotencyKey = 16, user = 32, receivedAt = 64, status = 128, duplicate = 256
        static let required: UInt16 = project.rawValue | region.rawValue | endpoint.rawValue | callID.rawValue | receivedAt.rawValue

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 4 where Self.equal(name, "user"): self = .user
            case 6 where Self.equal(name, "region"): self = .region
            case 6 where Self.equal(name, "status"): self = .status
            case 7 where Self.equal(name, "project"): self = .project
            case 7 where Self.equal(name, "call_id"): self = .callID
            case 8 where Self.equal(name, "endpoint"): self = .endpoint
            case 9 where Self.equal(name, "duplicate"): self = .duplicate
            case 11 where Self.equal(name, "received_at"): self = .receivedAt
            case 15 where Self.equal(name, "idempotency_key"): self = .idempotencyKey
            default: return nil
            }
        }

        private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
    }

    /// The receipt `line` (without its newline) holds, or nil when it is not in the plain form
    /// this scanner reads (the general path then reads it, or names what is wrong).
    mutating func scan(_ line: UnsafeBufferPointer<UInt8>) -> ReceiptLine? {
        var cursor = Cursor(bytes: line)
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt16 = 0
        var projectValue: ProjectFingerprint?
        var regionValue = "", endpointValue = ""
        var callID: WireCallID?
        var keyValue: String?, userValue: String?
        var receivedAt: JournalTime?
        var status: Int?
        var duplicate = false
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "}")) { return nil }
        repeat {
            cursor.skipWhitespace()
            guard let name = cursor.plainString() else { return nil }
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return nil }
            cursor.skipWhitespace()
            if let member = Member(name) {
                guard seen & member.rawValue == 0 else { return nil }
                seen |= member.rawValue
                switch member {
                case .project:
                    guard let text = cursor.plainString(), let fingerprint = fingerprint(text) else { return nil }
                    projectValue = fingerprint
                case .region:
                    guard let text = cursor.plainString() else { return nil }
                    regionValue = region.string(text)
                case .endpoint:
                    guard let text = cursor.plainString() else { return nil }
                    endpointValue = endpoint.string(text)
                case .callID:
                    guard let text = cursor.plainString(), let id = Self.callID(text) else { return nil }
                    callID = id
                case .idempotencyKey:
                    if cursor.takeNull() { keyValue = nil; break }
                    guard let text = cursor.plainString() else { return nil }
                    keyValue = idempotencyKey.string(text)
                case .user:
                    if cursor.takeNull() { userValue = nil; break }
                    guard let text = cursor.plainString() else { return nil }
                    userValue = user.string(text)
                case .receivedAt:
                    guard let text = cursor.plainString(), let time = ISOTime.parse(utf8: text) else { return nil }
                    receivedAt = time
                case .status:
                    if cursor.takeNull() { status = nil; break }
                    guard let number = cursor.status() else { return nil }
                    status = number
                case .duplicate:
                    if cursor.takeNull() { duplicate = false; break }
                    guard let flag = cursor.bool() else { return nil }
                    duplicate = flag
                }
            } else {
                guard cursor.skipScalar() else { return nil }
            }
            cursor.skipWhitespace()
        } while cursor.take(UInt8(ascii: ","))
        guard cursor.take(UInt8(ascii: "}")) else { return nil }
        cursor.skipWhitespace()
        guard cursor.isAtEnd, seen & Member.required == Member.required,
              let projectValue, let callID, let receivedAt else { return nil }
        return ReceiptLine(project: projectValue, region: regionValue, endpoint: endpointValue, callID: callID,
                           idempotencyKey: keyValue, user: userValue, receivedAt: receivedAt, status: status, duplicate: duplicate)
    }

    /// The fingerprint spelled by 16 lowercase hex digits (the last one reused while it repeats).
    private mutating func fingerprint(_ text: UnsafeBufferPointer<UInt8>) -> ProjectFingerprint? {
        if let project, projectBytes.elementsEqual(text) { return project }
        guard text.count == 2 * ProjectFingerprint.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ProjectFingerprint.byteCount)
        for index in stride(from: 0, to: text.count, by: 2) {
            guard let high = Self.nibble(text[index]), let low = Self.nibble(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard let fingerprint = ProjectFingerprint(bytes: bytes) else { return nil }
        projectBytes = Array(text)
        project = fingerprint
        return fingerprint
    }

    /// The call id spelled by 32 lowercase hex digits.
    private static func callID(_ text: UnsafeBufferPointer<UInt8>) -> WireCallID? {
        guard text.count == WireCallID.hexCount else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for index in 0..<16 {
            guard let digit = nibble(text[index]) else { return nil }
            high = high << 4 | UInt64(digit)
        }
        for index in 16..<32 {
            guard let digit = nibble(text[index]) else { return nil }
            low = low << 4 | UInt64(digit)
        }
        return WireCallID(high: high, low: low)
    }

    /// A lowercase hex digit's value.
    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// A position in a line's bytes.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// JSON's whitespace (the general parser's).
        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// The bytes between the quotes of a string with no escape, no control character and
        /// nothing but ASCII; nil (and the cursor anywhere) for anything else.
        mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        /// A byte a number's text may hold, as the general parser reads numbers: digits, signs,
        /// the point and the exponent's `e`.
        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: false
            }
        }

        mutating func takeNull() -> Bool { takeWord("null") }

        mutating func bool() -> Bool? {
            if takeWord("true") { return true }
            if takeWord("false") { return false }
            return nil
        }

        private mutating func takeWord(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count,
                  UnsafeBufferPointer(rebasing: bytes[position..<position + count])
                    .elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
            else { return false }
            position += count
            return true
        }

        /// Three digits, the first not 0, followed by no other byte of a number.
        mutating func status() -> Int? {
            guard bytes.count - position >= 3 else { return nil }
            var value = 0
            for offset in 0..<3 {
                let byte = bytes[position + offset]
                guard byte >= UInt8(ascii: offset == 0 ? "1" : "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += 3
            if position < bytes.count, Self.isNumberByte(bytes[position]) { return nil }
            return value
        }

        /// Skips a value of a member the schema does not name: a plain string, `true`, `false`,
        /// `null`, or an optional minus and 1 to 18 digits. False for anything else.
        mutating func skipScalar() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""): return plainString() != nil
            case UInt8(ascii: "t"): return takeWord("true")
            case UInt8(ascii: "f"): return takeWord("false")
            case UInt8(ascii: "n"): return takeWord("null")
            default:
                _ = take(UInt8(ascii: "-"))
                let start = position
                while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                    position += 1
                }
                guard (1...18).contains(position - start) else { return false }
                return position == bytes.count || !Self.isNumberByte(bytes[position])
            }
        }
    }
}
