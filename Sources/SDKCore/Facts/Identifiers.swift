import Foundation
import Journal

/// Identifies one public call from the moment it is made until its completion resolves.
package struct CallID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 16 bytes as two big-endian words, so integer order is byte-wise order: held as words
    /// rather than as a `UUID`, whose bytes are read through Foundation (a call into another
    /// module) at every hash, comparison and encoding, several times per call in the engine.
    private let high: UInt64
    private let low: UInt64

    public init(_ uuid: UUID) {
        (high, low) = withUnsafeBytes(of: uuid.uuid) { bytes in
            (UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
             UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    /// The id of these two words (the 16 bytes read as two big-endian halves).
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Its 16 bytes as two big-endian words.
    package var words: (high: UInt64, low: UInt64) { (high, low) }

    /// The id made of its 16 bytes, in order (``withBytes(_:)``); nil unless there are 16.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        high = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    public var uuid: UUID {
        withBytes { bytes in
            UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }

    /// Calls `body` with the id's 16 bytes, in order (the UUID's).
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { body($0) }
    }

    /// Byte-wise order of the 16 bytes (their two halves read big-endian).
    public static func < (lhs: CallID, rhs: CallID) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }

    public static func == (lhs: CallID, rhs: CallID) -> Bool {
        lhs.high == rhs.high && lhs.low == rhs.low
    }

    /// One word instead of sixteen bytes: call ids key the engine's busiest dictionaries. The
    /// word is one-to-one in `low` for a given `high` (the multiplier is odd), and the SDK's ids
    /// share `high` within a process (the SDK's `CallIDGenerator`), so it adds no collision among them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashWord)
    }

    /// The hash a `Dictionary` or `Set` keyed by call ids reads (the hook the standard library
    /// gives small keys), computed directly rather than by feeding ``hashWord`` to a `Hasher`:
    /// SipHash is costly for one word, and a track call hashes its id
    /// about six times (pending calls and completions: insert, find, remove and the moves a
    /// removal makes). The word is mixed with the table's seed (``SplitMixWordHash``). In the engine,
    /// call ids are made by the SDK, not by whoever sends it input, so SipHash's flooding
    /// resistance buys nothing there. A journal read by `replay` may hold any ids, and ids that
    /// share their word (see ``hash(into:)``) collide whatever the hash: SipHash would not prevent
    /// that either. Equal ids hash equally, as with ``hash(into:)``.
    public func _rawHashValue(seed: Int) -> Int {
        SplitMixWordHash.value(of: hashWord, seed: seed)
    }

    /// The id's hash for a table of the SDK's own (the engine's completions): ``hashWord`` mixed
    /// as a `Dictionary`'s is (``SplitMixWordHash``).
    package var tableHash: Int {
        SplitMixWordHash.value(of: hashWord, seed: 0)
    }

    /// The id in one word (see ``hash(into:)``).
    private var hashWord: UInt64 {
        high &+ low &* 0x9E37_79B9_7F4A_7C15
    }

    /// The id as two words in the order of ``<`` (compared as a tuple): sorting thousands of
    /// ids by it loads each id's bytes once, not at every comparison.
    package var orderKey: (UInt64, UInt64) {
        (high, low)
    }

    /// The last eight hex digits: enough to tell calls apart in a timeline.
    public var description: String { String(uuid.lowercasedText.utf8.suffix(8))! }

    /// Appends ``description``'s eight digits without making the string (a row per call).
    package func writeDescription(to output: inout ScratchBytes) {
        output.appendWriting(atMost: 8) { text in
            Hex.write(UInt32(truncatingIfNeeded: low), at: UnsafeMutableRawPointer(text))
            return 8
        }
    }
}

/// Identifies one delivery task (one HTTP request and its retries) within a journal.
package struct TaskID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let number: UInt64

    public init(_ number: UInt64) {
        self.number = number
    }

    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.number < rhs.number }
    public var description: String { "t\(number)" }

    /// Computed directly, as ``CallID`` computes its own (``SplitMixWordHash``): every track call looks
    /// its project's last task up to batch its event into it.
    public func _rawHashValue(seed: Int) -> Int {
        SplitMixWordHash.value(of: number, seed: seed)
    }
}

/// The hash of a key that is one word, for a table with `seed`, without a `Hasher`: the word
/// xor the seed through SplitMix64's finalizer, a bijection (distinct words never collide in
/// full; the low bits a table uses are well spread). For keys the SDK makes itself, whose
/// tables need no resistance to chosen collisions.
enum SplitMixWordHash {
    @inline(__always)
    static func value(of word: UInt64, seed: Int) -> Int {
        var mixed = word ^ UInt64(bitPattern: Int64(seed))
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(mixed ^ (mixed >> 31)))
    }
}

/// Identifies one project switch request (numbered in the order the SDK received them).
public struct SwitchID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let number: UInt64

    public init(_ number: UInt64) {
        self.number = number
    }

    public static func < (lhs: SwitchID, rhs: SwitchID) -> Bool { lhs.number < rhs.number }
    public var description: String { "s\(number)" }
}

extension JournalTime {
    /// This time plus `microseconds`, saturating at the ends of the range (values from a damaged
    /// journal must never trap).
    package func advanced(byMicroseconds microseconds: Int64) -> JournalTime {
        let (sum, overflow) = microsecondsSince1970.addingReportingOverflow(microseconds)
        return JournalTime(microsecondsSince1970: overflow ? (microseconds > 0 ? .max : .min) : sum)
    }

    /// This time plus `duration` (to the microsecond), saturating.
    package func advanced(by duration: Duration) -> JournalTime {
        advanced(byMicroseconds: duration.wholeMicroseconds)
    }

    /// This time plus `milliseconds`, saturating.
    package func advanced(byMilliseconds milliseconds: Int64) -> JournalTime {
        let (micros, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000)
        return advanced(byMicroseconds: overflow ? (milliseconds > 0 ? .max : .min) : micros)
    }
}
