import Journal
import SDK
import SDKTesting
import Testing
import TestSupport
@testable import ReplayKit

/// ``NestingProbe`` pushes each message's fields onto its stack as it finds them; it must give
/// exactly the depth the probe gave when it collected each message's fields in an array first.
@Suite("nesting probe", .timeLimit(.minutes(1)))
struct NestingProbeTests {
    /// The probe as it was: each message's length-delimited fields collected, then pushed.
    static func referenceDepth(of payload: UnsafeRawBufferPointer, limit: Int) -> Int {
        func varint(_ position: inout Int, end: Int) -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < end, shift < 64 {
                let byte = payload[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        func fields(in range: Range<Int>, budget: inout Int) -> [Range<Int>]? {
            var position = range.lowerBound
            var children: [Range<Int>] = []
            while position < range.upperBound {
                budget -= 1
                guard budget > 0, let key = varint(&position, end: range.upperBound) else { return nil }
                switch key & 7 {
                case 0: guard varint(&position, end: range.upperBound) != nil else { return nil }
                case 1:
                    guard range.upperBound - position >= 8 else { return nil }
                    position += 8
                case 2:
                    guard let length = varint(&position, end: range.upperBound), length <= UInt64(range.upperBound - position) else { return nil }
                    children.append(position..<(position + Int(length)))
                    position += Int(length)
                default: return nil
                }
            }
            return children
        }
        var pending: [(range: Range<Int>, depth: Int)] = [(0..<payload.count, 1)]
        var deepest = 0
        var budget = 1 << 24
        while let (range, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            if deepest > limit { return deepest }
            guard let children = fields(in: range, budget: &budget) else { continue }
            for child in children where !child.isEmpty { pending.append((child, depth + 1)) }
            if budget <= 0 { return limit + 1 }
        }
        return deepest
    }

    /// A random message: varints, fixed words, nested messages and random bytes as strings,
    /// sometimes cut short or with a stray byte.
    static func message(_ generator: inout SplitMix64, depth: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0..<6, using: &generator) {
            let field = UInt64.random(in: 1...20, using: &generator)
            switch Int.random(in: 0..<(depth > 12 ? 3 : 4), using: &generator) {
            case 0:
                Varint.append(field << 3, to: &bytes)
                Varint.append(UInt64.random(in: 0...UInt64.max >> Int.random(in: 0..<64, using: &generator), using: &generator), to: &bytes)
            case 1:
                Varint.append(field << 3 | 1, to: &bytes)
                bytes += (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 2:
                let text = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                Varint.append(field << 3 | 2, to: &bytes)
                Varint.append(UInt64(text.count), to: &bytes)
                bytes += text
            default:
                let nested = message(&generator, depth: depth + 1)
                Varint.append(field << 3 | 2, to: &bytes)
                Varint.append(UInt64(nested.count), to: &bytes)
                bytes += nested
            }
        }
        if !bytes.isEmpty, Int.random(in: 0..<10, using: &generator) == 0 { bytes.removeLast(Int.random(in: 1...bytes.count, using: &generator)) }
        if Int.random(in: 0..<10, using: &generator) == 0 { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        return bytes
    }

    @Test("random and deeply nested payloads give the depth the array-per-message probe gave")
    func sameDepths() {
        var generator = SplitMix64(seed: 20_261_203)
        for round in 0..<3_000 {
            let payload = Self.message(&generator, depth: 0)
            for limit in [3, 8, 96] {
                payload.withUnsafeBytes { raw in
                    let reference = Self.referenceDepth(of: raw, limit: limit)
                    #expect(NestingProbe.depth(of: raw, limit: limit) == reference, "round \(round), limit \(limit)")
                    // What the decoder asks, which skips the messages too short to go past the limit.
                    #expect(NestingProbe.exceeds(raw, limit: limit) == (reference > limit), "round \(round), limit \(limit)")
                }
            }
        }
    }

    @Test("a fact read without its data values is not refused for its data's nesting: the data is not read")
    func dataNotReadNotProbed() throws {
        // A track whose data nests arrays about 200,000 deep (HostileJournalTests).
        let payload = HostileJournalTests.deeplyNestedTrack()
        func decoded(_ decoding: RecordDecoding) -> DecodedRecord.Content {
            payload.withUnsafeBytes { bytes in
                RecordDecoder.decode(sequence: 1, time: JournalTime(microsecondsSince1970: 0), kind: FactKind.callReceived.rawValue,
                                     payload: bytes, decoding: decoding).content
            }
        }
        guard case .unreadable(let reason) = decoded(.whole) else {
            Issue.record("read whole, the payload is refused")
            return
        }
        #expect(reason == "payload nests deeper than \(RecordDecoder.maximumNesting) levels")
        guard case .fact(.callReceived(let received)) = decoded(.withoutDataValues) else {
            Issue.record("read without data values, the call is read")
            return
        }
        guard case .track(let event, let data) = received.call else {
            Issue.record("a track, got \(received.call)")
            return
        }
        #expect(event == "event")
        #expect(data == [:])
    }
}
