/// A tracked event that joined a queued `events/track` task (``Fact/eventBatched(task:event:executedOn:)``):
/// it is sent with that task's first event as one `events/trackBulk` request, and its call is
/// resolved on its own when the answer comes.
package struct BatchedEvent: Sendable, Hashable {
    /// The `track` call the event was made by.
    public var call: CallID
    /// The event's JSON object, exactly as `events/track` would have sent it.
    public var body: [UInt8]

    public init(call: CallID, body: [UInt8]) {
        self.call = call
        self.body = body
    }
}
