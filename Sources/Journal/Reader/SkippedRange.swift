/// What salvage mode stepped over: from a damaged spot to the next sync point it could resume at
/// (or to the end of the segment when there was none).
public struct SkippedRange: Sendable, Equatable {
    /// The damage that started the skip.
    public var damage: Damage
    /// The byte offset where reading resumed, in the same segment; nil when it resumed in a later
    /// segment (or not at all).
    public var resumedAtOffset: Int?
    /// The first sequence number read after the skip; nil when nothing was read after it.
    public var resumedAtSequence: UInt64?

    public init(damage: Damage, resumedAtOffset: Int?, resumedAtSequence: UInt64?) {
        self.damage = damage
        self.resumedAtOffset = resumedAtOffset
        self.resumedAtSequence = resumedAtSequence
    }
}

extension SkippedRange: CustomStringConvertible {
    public var description: String {
        let bytes = resumedAtOffset.map { "bytes \(damage.offset)..<\($0)" } ?? "bytes \(damage.offset)..<end"
        let sequences: String
        switch (damage.sequence, resumedAtSequence) {
        case let (first?, resumed?): sequences = resumed > first ? "sequences \(first)...\(resumed - 1) lost" : "no sequence lost"
        case let (first?, nil): sequences = "sequences from \(first) lost"
        default: sequences = "sequences unknown"
        }
        return "skipped \(bytes) of \(damage.segment) (\(sequences)): \(damage.reason)"
    }
}
