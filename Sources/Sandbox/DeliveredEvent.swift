import Foundation

/// One tracked event a project received, whether it came alone (`events/track`) or in a bulk
/// request (`events/trackBulk`): what an app's `track` call became at the platform.
public struct DeliveredEvent: Sendable, Equatable {
    /// The event's `eventName`.
    public let eventName: String
    /// The user the event names: its `email`, else nil.
    public let email: String?
    /// The user the event names by id, when it has no email.
    public let userID: String?
    /// The event's own JSON object (for a bulk request, its element of `events`), keys sorted.
    public let body: Data
    /// The request that carried it.
    public let request: ReceivedRequest
    /// Its position in that request: 0 for `events/track`, its index in `events` for a bulk.
    public let index: Int

    /// The body as a JSON object.
    public var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
}
