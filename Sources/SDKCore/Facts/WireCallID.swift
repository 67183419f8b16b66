import Foundation
import Journal

/// The id one sent call carries on the wire, as `callId` in its JSON object (each event of a
/// bulk its own) or in a fetch's query, beside its request's `Idempotency-Key`: what lets a
/// project's receipt log be matched with the journal call by call (`replay reconcile`,
/// docs/RECONCILE.md).
///
/// Derived, never stored: the call's id mixed under the journal's stream id, whose words are
/// mixed first (for a request of the SDK's own, its task's number and creation time, as its
/// idempotency key is), by a bijection per stream. So it is the same on every attempt and after a relaunch, costs the
/// journal no byte and the request a few arithmetic operations a call, is unique within a journal, and tells
/// a backend nothing it is not already sent: the `Idempotency-Key` carries the stream and call
/// ids themselves, and neither names the user. It is not a secret, and not a hash.
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

    /// A journal stream's id as its calls' ids take it: each of its words mixed on its own
    /// first, so that the ids of different journals stay unrelated even where stream and call
    /// ids are both structured and vary together (a simulator's seeds, a test's counters).
    /// Made once per request, not per call.
    package struct Stream: Sendable {
        fileprivate let high: UInt64
        fileprivate let low: UInt64

        package init(_ id: UUID) {
            let (high, low) = withUnsafeBytes(of: id.uuid) { bytes in
                (UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
            self.high = WireCallID.mix(high)
            self.low = WireCallID.mix(low)
        }
    }

    /// The id of `call`'s request (or its event in a bulk) in journal stream `stream`.
    package init(stream: UUID, call: CallID) {
        self.init(stream: Stream(stream), call: call)
    }

    /// The id of `call`'s request (or its event in a bulk) in the stream `stream` keys.
    package init(stream: Stream, call: CallID) {
        let (high, low) = call.words
        self.init(stream: stream, high: high, low: low)
    }

    /// The id of a request of the SDK's own (no call: a switch's disableDevice, a token
    /// re-registration): task `task` made at `createdAt` in stream `stream`. Its top bit set keeps
    /// it apart from the sequential call ids of tests and the demo; a random call id meets it
    /// with the odds of a 128-bit collision.
    package init(stream: UUID, task: TaskID, createdAt: JournalTime) {
        self.init(stream: Stream(stream), task: task, createdAt: createdAt)
    }

    /// The id of a request of the SDK's own in the stream `stream` keys.
    package init(stream: Stream, task: TaskID, createdAt: JournalTime) {
        self.init(stream: stream, high: task.number | 1 << 63,
                  low: UInt64(bitPattern: createdAt.microsecondsSince1970))
    }

    /// `(high, low)` mixed under `stream`: a bijection of the 128 bits for each stream, so two
    /// calls of one journal never share an id, and calls of different journals (whose call ids
    /// may repeat: sequential ids in tests and the demo) get unrelated ones.
    private init(stream: Stream, high: UInt64, low: UInt64) {
        let mixedHigh = Self.mix(stream.high ^ high ^ (low << 29 | low >> 35))
        self.init(high: mixedHigh, low: Self.mix(stream.low ^ low ^ mixedHigh))
    }

    /// SplitMix64's finalizer: a bijection of 64-bit words that spreads every input bit over the
    /// output.
    fileprivate static func mix(_ word: UInt64) -> UInt64 {
        var z = word
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
        output.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: high >> 32)).bigEndian, toByteOffset: 0, as: UInt64.self)
        output.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: high)).bigEndian, toByteOffset: 8, as: UInt64.self)
        output.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: low >> 32)).bigEndian, toByteOffset: 16, as: UInt64.self)
        output.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: low)).bigEndian, toByteOffset: 24, as: UInt64.self)
    }

    /// The 8 lowercase hex digits of `word` as the bytes of a 64-bit word, most significant
    /// digit in its most significant byte: each nibble spread to a byte, then turned to its
    /// digit in all eight bytes at once.
    private static func hexDigits(_ word: UInt32) -> UInt64 {
        var spread = UInt64(word)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // 1 in each byte whose nibble is 10 or more, which then skips from '9' + 1 to 'a'.
        let letters = (spread &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
        return spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    package static func < (lhs: WireCallID, rhs: WireCallID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    package var description: String { hex }
}
