import Journal
import SDK

/// An analysis that takes in records on one thread while their segments are folded on others
/// (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``): it says which
/// facts it passes over (it only counts them) and, for the others, what it reads of the state
/// before each, taken on the folding thread.
protocol StateLooking {
    associatedtype Look: Sendable

    /// Whether taking in `fact` changes nothing for the analysis but the count of records.
    static func passesOver(_ fact: Fact) -> Bool

    /// What the analysis reads of `state`, the state before `record`, when it takes in `record`.
    static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look
}

extension StateLooking {
    /// ``look(at:in:)``, or nil for a record the analysis passes over (``passesOver(_:)``) and
    /// for an unreadable record; a snapshot is always looked at.
    static func lookUnlessPassedOver(at record: DecodedRecord, in state: borrowing SDKState) -> Look? {
        switch record.content {
        case .snapshot: return look(at: record, in: state)
        case .unreadable: return nil
        case .fact(let fact): return passesOver(fact) ? nil : look(at: record, in: state)
        }
    }
}
