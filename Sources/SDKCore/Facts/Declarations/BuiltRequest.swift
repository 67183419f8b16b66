/// The requests whose shape is their own (``CallRequest/built(_:)``), one per call that makes
/// it. A call declared with a POST of its arguments needs none; a call with a shape of its own
/// adds it here and ``RequestBody`` is asked, by the compiler, how to build it.
package enum BuiltRequest: Sendable, Hashable {
    /// `users/updateEmail`: the new email and the current user (`currentEmail` or `currentUserId`).
    case updateEmail
    /// `commerce/updateCart`: the user nested, the items.
    case updateCart
    /// `commerce/trackPurchase`: the user nested, the items, the total, the time made.
    case trackPurchase
    /// `events/track`: the event, its data fields, the time made (``RequestBody/trackBody(_:dataFields:identity:createdAt:)``).
    case track
    /// `users/registerDeviceToken`: the token as the platform's device object.
    case registerToken
    /// `users/disableDevice`: the push token the SDK holds; no request without one.
    case disableDevice
    /// `events/trackPushOpen`: the push's ids and data fields.
    case trackPushOpen
    /// `inApp/getMessages`: a GET with the count, the platform and the SDK's version.
    case inAppMessages
    /// `embedded-messaging/messages`: a GET with the platform and the SDK's version.
    case embeddedMessages
}
