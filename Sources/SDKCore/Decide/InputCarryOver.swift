/// What the input being decided or folded carries from one of its facts to the next, outside
/// the state's value: two states that differ only in it are equal, and snapshots leave it out
/// (a snapshot is taken between inputs, where no fact needs what an earlier input left).
package struct InputCarryOver: Sendable, Equatable {
    /// The folded input's call when it is a `track`: its id, event name and data fields, whose
    /// `eventBatched` may carry no body when it carries the gate's decision (format 1.3;
    /// ``SDKState/receivedTrackBody(of:at:)``).
    package var track: (call: CallID, event: String, dataFields: [String: DataValue]?)?
    /// The body `decide` built for the input's `track` call before recording it
    /// (``SDKState/prepareTrackBody(for:at:)``). One buffer from input to input: a call's
    /// body is copied from it into its task's batch, and no array is made for it.
    package var preparedBody: [UInt8] = []

    package init() {}

    /// Always true: not part of the state's value.
    package static func == (lhs: Self, rhs: Self) -> Bool { true }
}
