/// A spot where a segment stops being readable: which file, at which byte offset, which sequence
/// number the reader expected there, why, and whether it is a torn tail or corruption.
public struct Damage: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The last segment ends in an incomplete or invalid write with nothing readable after
        /// it: what a crash mid-append leaves. Recovery truncates it; it is not an error.
        case tornTail = "torn tail"
        /// Invalid bytes where valid records must be: followed by readable data, or inside a
        /// sealed segment. Never dropped silently.
        case corruption
    }

    public var kind: Kind
    /// The segment file's name.
    public var segment: String
    /// The byte offset, in that file, of the first invalid byte structure.
    public var offset: Int
    /// The sequence number the next readable record would have had, when known.
    public var sequence: UInt64?
    /// What was wrong, in words.
    public var reason: String

    public init(kind: Kind, segment: String, offset: Int, sequence: UInt64?, reason: String) {
        self.kind = kind
        self.segment = segment
        self.offset = offset
        self.sequence = sequence
        self.reason = reason
    }
}

extension Damage: CustomStringConvertible {
    public var description: String {
        let at = sequence.map { ", sequence \($0)" } ?? ""
        return "\(kind.rawValue) in \(segment) at offset \(offset)\(at): \(reason)"
    }
}
