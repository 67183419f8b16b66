extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes are `literal`'s UTF-8 bytes: lengths first, then byte by byte (keys
    /// and kinds are a few bytes; the generic `elementsEqual` costs more than comparing them).
    @inline(__always)
    package func hasSameBytes(as literal: StaticString) -> Bool {
        literal.withUTF8Buffer { other in
            guard count == other.count else { return false }
            for index in 0..<count where self[index] != other[index] { return false }
            return true
        }
    }
}
