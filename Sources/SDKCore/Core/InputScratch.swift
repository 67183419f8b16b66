/// What the input being folded carries from its `callReceived` to its later facts,
/// outside the state's value: two states that differ only in it are equal, and snapshots leave
/// it out (a snapshot is taken between inputs, where no fact needs what an earlier input left).
///
/// For now, one thing: the input's `track` call, whose `eventBatched` may carry no body when it
/// carries the gate's decision (format 1.3; ``SDKState/receivedTrackBody(of:at:)``).
package struct InputScratch: Sendable, Equatable {
    /// The input's call when it is a `track`: its id, event name and data fields.
    package var track: (call: CallID, event: String, dataFields: [String: DataValue]?)?

    package init() {}

    /// Always true: not part of the state's value.
    package static func == (lhs: Self, rhs: Self) -> Bool { true }
}
