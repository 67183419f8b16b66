/// An event of a bulk request that the project's answer refused while accepting the request
/// (a disallowed event name, an invalid email or user id): its call fails alone.
package struct RefusedEvent: Sendable, Hashable {
    /// The event's position in the task's events: 0 is the task's own event, then its batch.
    public var index: Int
    /// What the answer said, e.g. `disallowedEventNames`.
    public var reason: String

    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}
