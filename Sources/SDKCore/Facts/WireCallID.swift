import Foundation
import Journal

/// The id one sent call carries on the wire, as `callId` in its JSON object (each event of a
/// bulk its own) or in a fetch's query, beside its request's `Idempotency-Key`: what lets a
/// project's receipt log be matched with the journal call by call (`replay reconcile`,
/// docs/RECONCILE.md).
///
/// Derived, never stored: the first 16 bytes of SHA-256 over a domain word, the journal's
/// stream id and the call's id (or, for a request of the SDK's own, its task's number and
/// creation time, as its idempotency key is). So it is the same on every attempt and after a
/// relaunch, costs the journal no byte, and reveals nothing of the user or of the stream (a
/// backend cannot tell two installs' calls apart by it, nor read a call's id out of it).
package struct WireCallID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 16 bytes as two big-endian words.
    package let high: UInt64
    package let low: UInt64

    /// The number of characters of its text form (``hex``).
    package static let hexCount = 32

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The id of `call`'s request (or its event in a bulk) in journal stream `stream`.
    package init(stream: UUID, call: CallID) {
        var input = [UInt8](repeating: 0, count: 4 + 16 + 16)
        input[0] = UInt8(ascii: "c"); input[1] = UInt8(ascii: "a"); input[2] = UInt8(ascii: "l"); input[3] = UInt8(ascii: "l")
        Self.put(stream, into: &input, at: 4)
        call.withBytes { bytes in for index in 0..<16 { input[20 + index] = bytes[index] } }
        self.init(digestOf: input)
    }

    /// The id of a request of the SDK's own (no call: a switch's disableDevice, a token
    /// re-registration): task `task` made at `createdAt` in stream `stream`.
    package init(stream: UUID, task: TaskID, createdAt: JournalTime) {
        var input = [UInt8](repeating: 0, count: 4 + 16 + 8 + 8)
        input[0] = UInt8(ascii: "t"); input[1] = UInt8(ascii: "a"); input[2] = UInt8(ascii: "s"); input[3] = UInt8(ascii: "k")
        Self.put(stream, into: &input, at: 4)
        withUnsafeBytes(of: task.number.bigEndian) { for index in 0..<8 { input[20 + index] = $0[index] } }
        withUnsafeBytes(of: createdAt.microsecondsSince1970.bigEndian) { for index in 0..<8 { input[28 + index] = $0[index] } }
        self.init(digestOf: input)
    }

    /// The id spelled by `hex`, its 32-character lowercase form, or nil for any other text.
    package init?(hex: some StringProtocol) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == Self.hexCount else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in utf8.enumerated() {
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            if index < 16 { words.0 = words.0 << 4 | nibble } else { words.1 = words.1 << 4 | nibble }
        }
        self.init(high: words.0, low: words.1)
    }

    private init(digestOf input: [UInt8]) {
        let digest = SHA256.digest(input)
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(digest[index])
            low = low << 8 | UInt64(digest[8 + index])
        }
        self.init(high: high, low: low)
    }

    private static func put(_ uuid: UUID, into bytes: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: uuid.uuid) { for index in 0..<16 { bytes[offset + index] = $0[index] } }
    }

    /// The 32 lowercase hex digits.
    package var hex: String {
        String(unsafeUninitializedCapacity: Self.hexCount) { text in
            writeHex(into: UnsafeMutableRawBufferPointer(text))
            return Self.hexCount
        }
    }

    /// Writes the 32 hex digits at the start of `output` (room for them).
    package func writeHex(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= Self.hexCount, "room for a call id")
        withUnsafeBytes(of: high.bigEndian) { high in
            withUnsafeBytes(of: low.bigEndian) { low in
                for index in 0..<8 {
                    output[2 * index] = Self.digit(high[index] >> 4)
                    output[2 * index + 1] = Self.digit(high[index] & 0x0F)
                    output[16 + 2 * index] = Self.digit(low[index] >> 4)
                    output[16 + 2 * index + 1] = Self.digit(low[index] & 0x0F)
                }
            }
        }
    }

    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    package static func < (lhs: WireCallID, rhs: WireCallID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    package var description: String { hex }
}
