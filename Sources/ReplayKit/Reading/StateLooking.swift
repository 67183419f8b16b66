import Journal
import SDK

/// An analysis that takes in records on one thread while their segments are folded on others
/// (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``): it says what
/// it reads of each record and of the state before it, taken on the folding thread, and which
/// facts it passes over (it only counts them).
protocol StateLooking {
    associatedtype Look: Sendable

    /// What the analysis reads of `record`, and of `state`, the state before it, when it takes in
    /// `record`.
    static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look

    /// Whether taking in `record`, whose look is `look`, changes nothing for the analysis but the
    /// count of records.
    static func passesOver(_ record: DecodedRecord, looking look: Look) -> Bool
}

extension StateLooking {
    /// ``look(at:in:)``, or nil for a record the analysis passes over (``passesOver(_:looking:)``)
    /// and for an unreadable record; a snapshot is always looked at.
    static func lookUnlessPassedOver(at record: DecodedRecord, in state: borrowing SDKState) -> Look? {
        switch record.content {
        case .snapshot: return look(at: record, in: state)
        case .unreadable: return nil
        case .fact:
            let look = look(at: record, in: state)
            return passesOver(record, looking: look) ? nil : look
        }
    }
}
