/// Why an LZ4 block does not decode: the byte of the block where the broken sequence, length or
/// offset begins, and what is wrong with it.
package struct LZ4BlockError: Error, Sendable, Equatable {
    /// The offset in the block's stored bytes.
    package var offset: Int
    package var reason: String

    package init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

extension LZ4BlockError: CustomStringConvertible {
    package var description: String { "at block byte \(offset): \(reason)" }
}
