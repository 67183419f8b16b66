/// Measures how deeply tagged-field messages nest in a payload, without recursion.
///
/// The journal's payloads are tagged-field messages (varint key, then a varint, 8 bytes, or a
/// length-delimited value). A length-delimited value that itself parses as a whole message is
/// counted as a nested level. Strings that happen to parse as messages only make the estimate
/// larger, never smaller, so a payload that passes the probe decodes within the limit.
enum NestingProbe {
    /// Whether `payload` nests deeper than `limit` (``depth(of:limit:)`` above it). Each level
    /// below the top costs its parent at least a key and a length byte, so a payload of at most
    /// `2 * limit` bytes cannot, and is not walked.
    static func exceeds(_ payload: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard payload.count > 2 * limit else { return false }
        return deepest(in: payload, limit: limit, exactWithinLimit: false) > limit
    }

    /// The nesting depth of `payload`, or a value above `limit` as soon as it exceeds it.
    static func depth(of payload: UnsafeRawBufferPointer, limit: Int) -> Int {
        deepest(in: payload, limit: limit, exactWithinLimit: true)
    }

    /// ``depth(of:limit:)``; without `exactWithinLimit`, only whether it is above `limit` is
    /// exact: a message too short to hold levels past the limit is not walked (each level
    /// below one of `n` bytes costs it a key and a length byte, so it reaches at most
    /// `(n - 1) / 2` levels further), which skips nearly every message of a legitimate payload.
    private static func deepest(in payload: UnsafeRawBufferPointer, limit: Int, exactWithinLimit: Bool) -> Int {
        // Each pending range is a byte range believed to be a message, with its depth.
        var pending: [(range: Range<Int>, depth: Int)] = []
        pending.reserveCapacity(16)
        pending.append((0..<payload.count, 1))
        var deepest = 0
        var budget = 1 << 24   // bounds the work on adversarial input
        while let (range, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            if deepest > limit { return deepest }
            if !exactWithinLimit, depth + (range.count - 1) / 2 <= limit { continue }
            guard pushLengthDelimitedFields(in: payload, range: range, depth: depth + 1, onto: &pending, budget: &budget) else { continue }
            if budget <= 0 { return limit + 1 }
        }
        return deepest
    }

    /// Pushes the non-empty value ranges of the length-delimited fields of the message in
    /// `range`, in order and at `depth`, onto `pending`, and returns true; pushes none and
    /// returns false when the bytes are not a well-formed message. (Pushed as they are found,
    /// with no array of them made per message.)
    private static func pushLengthDelimitedFields(in bytes: UnsafeRawBufferPointer, range: Range<Int>, depth: Int,
                                                  onto pending: inout [(range: Range<Int>, depth: Int)], budget: inout Int) -> Bool {
        let pushedBefore = pending.count
        func refuse() -> Bool {
            pending.removeSubrange(pushedBefore...)
            return false
        }
        var position = range.lowerBound
        while position < range.upperBound {
            budget -= 1
            guard budget > 0, let key = varint(bytes, &position, end: range.upperBound) else {
                return refuse()
            }
            switch key & 7 {
            case 0:
                guard varint(bytes, &position, end: range.upperBound) != nil else { return refuse() }
            case 1:
                guard range.upperBound - position >= 8 else { return refuse() }
                position += 8
            case 2:
                guard let length = varint(bytes, &position, end: range.upperBound),
                      length <= UInt64(range.upperBound - position) else { return refuse() }
                let end = position + Int(length)
                if end > position { pending.append((position..<end, depth)) }
                position = end
            default:
                return refuse()
            }
        }
        return true
    }

    private static func varint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < end, shift < 64 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
