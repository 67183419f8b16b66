import Foundation
import SDKCore

// The public calls. Each has a completion form and an async form; both return at once to the
// caller and keep the order of calls made from one thread.
extension EngagementSDK {
    /// The calls in the form that awaits their outcome: `await sdk.outcome.track("cart_viewed")`
    /// returns the `CallOutcome` the completion of `sdk.track("cart_viewed")` would receive.
    ///
    /// Each ``AwaitedCalls`` method says what it waits for (a request waits for the project's
    /// answer: minutes or hours while offline).
    public var outcome: AwaitedCalls { AwaitedCalls(sdk: self) }

    /// Sets the user's email (nil forgets it); either way the user id is forgotten.
    ///
    /// Nothing is sent for it. Once the user is known, the events held for an unknown user are sent
    /// and the push token is registered for them. Rejected when `email` is empty, has no `@`, a
    /// control character or more than 1,024 bytes. Gated: during a switch it is held, and runs
    /// against the new project when the switch lands. Outcome: `CallOutcome.applied(project:)` as
    /// soon as it is processed.
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func setEmail(_ email: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setEmail(email), completion)
    }

    /// The async form of ``setEmail(_:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func setEmail(_ email: String?) async -> CallOutcome {
        await submit(.setEmail(email))
    }

    /// Sets the user's id (nil forgets it); either way the email is forgotten.
    ///
    /// Nothing is sent for it. Once the user is known, the events held for an unknown user are sent
    /// and the push token is registered for them. Rejected when `userId` is empty, has a control
    /// character or more than 1,024 bytes. Gated: during a switch it is held, and runs against the
    /// new project when the switch lands. Outcome: `CallOutcome.applied(project:)` as soon as it
    /// is processed.
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func setUserId(_ userId: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setUserId(userId), completion)
    }

    /// The async form of ``setUserId(_:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func setUserId(_ userId: String?) async -> CallOutcome {
        await submit(.setUserId(userId))
    }

    /// Changes the user's email on the platform (`users/updateEmail`).
    ///
    /// The SDK follows the new email when the call is processed, not when the platform answers.
    /// Rejected, with nothing sent, when no user is identified or `newEmail` is not a usable email.
    /// Gated: during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func updateEmail(_ newEmail: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateEmail(newEmail), completion)
    }

    /// The async form of ``updateEmail(_:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func updateEmail(_ newEmail: String) async -> CallOutcome {
        await submit(.updateEmail(newEmail))
    }

    /// Updates the user's profile fields (`users/update`), merging nested objects unless told not
    /// to.
    ///
    /// Rejected, with nothing sent, when no user is identified or the fields encode to more than 64
    /// KiB of JSON. Gated: during a switch it is held, and runs against the new project when the
    /// switch lands. Outcomes: `CallOutcome.delivered(project:status:)` once the project answered
    /// 2xx, else a failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects), completion)
    }

    /// The async form of ``updateUser(dataFields:mergeNestedObjects:completion:)``: the same call,
    /// returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true) async -> CallOutcome {
        await submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects))
    }

    /// Replaces the user's cart (`commerce/updateCart`).
    ///
    /// For an unknown user it is held (at most 100 such events; more are discarded as
    /// `DiscardReason.queueFull(capacity:)`) and completes at once as
    /// `CallOutcome.applied(project:)`; it is sent once ``setEmail(_:completion:)`` or
    /// ``setUserId(_:completion:)`` identifies the user. Gated: during a switch it is held, and
    /// runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func updateCart(items: [CommerceItem], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateCart(items: items), completion)
    }

    /// The async form of ``updateCart(items:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func updateCart(items: [CommerceItem]) async -> CallOutcome {
        await submit(.updateCart(items: items))
    }

    /// Tracks a purchase (`commerce/trackPurchase`).
    ///
    /// Rejected when `total` is negative or not finite, or an item is unusable. For an unknown user
    /// it is held (at most 100 such events) and completes at once as
    /// `CallOutcome.applied(project:)`; it is sent once the user is identified. Gated: during a
    /// switch it is held, and runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPurchase(total: total, items: items, dataFields: dataFields), completion)
    }

    /// The async form of ``trackPurchase(total:items:dataFields:completion:)``: the same call,
    /// returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil) async -> CallOutcome {
        await submit(.trackPurchase(total: total, items: items, dataFields: dataFields))
    }

    /// Tracks a custom event (`events/track`).
    ///
    /// Rejected when `event` is empty, too long or has a control character, or the fields encode to
    /// more than 64 KiB. For an unknown user it is held (at most 100 such events) and completes at
    /// once as `CallOutcome.applied(project:)`; it is sent once the user is identified. Gated:
    /// during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func track(_ event: String, dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.track(event: event, dataFields: dataFields), completion)
    }

    /// The async form of ``track(_:dataFields:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func track(_ event: String, dataFields: [String: DataValue]? = nil) async -> CallOutcome {
        await submit(.track(event: event, dataFields: dataFields))
    }

    /// Registers the device's push token (`users/registerDeviceToken`).
    ///
    /// The SDK keeps the token at once. For a known user it is sent now (outcome as for every
    /// request); for an unknown user the call completes at once as
    /// `CallOutcome.applied(project:)` and the token is registered, by the SDK itself, once the
    /// user is identified. Gated: during a switch it is held, and runs against the new project when
    /// the switch lands.
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func registerToken(_ token: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.registerToken(token), completion)
    }

    /// The async form of ``registerToken(_:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func registerToken(_ token: String) async -> CallOutcome {
        await submit(.registerToken(token))
    }

    /// Disables the device's push token for the user (`users/disableDevice`).
    ///
    /// Rejected, with nothing sent, when no push token is registered. Never discarded for a full
    /// delivery queue, nor purged by a logout or a switch. Gated: during a switch it is held, and
    /// runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func disableDevice(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.disableDevice, completion)
    }

    /// The async form of ``disableDevice(completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func disableDevice() async -> CallOutcome {
        await submit(.disableDevice)
    }

    /// Logs the user out: disables the device, purges queued requests, forgets the user.
    ///
    /// Modules hear `ModuleEvent.willLogout` (awaited on their own tasks, within their bound;
    /// this call does not wait for them). Queued requests other than disables resolve as
    /// `DiscardReason.purgedByLogout`; for a known user with a push token the SDK queues its own
    /// `users/disableDevice`. Gated: during a switch it is held, and runs against the new project
    /// when the switch lands. Outcome: `CallOutcome.applied(project:)` as soon as it is
    /// processed, not when the disable is delivered.
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func logoutUser(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.logoutUser, completion)
    }

    /// The async form of ``logoutUser(completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func logoutUser() async -> CallOutcome {
        await submit(.logoutUser)
    }

    /// Tracks that the user opened a push (`events/trackPushOpen`).
    ///
    /// A push that names its campaign and template also becomes the project's attribution. Inline:
    /// runs against the project the SDK is on now, even during a switch; never held. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackPushOpen(_ open: PushOpen, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPushOpen(open), completion)
    }

    /// The async form of ``trackPushOpen(_:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackPushOpen(_ open: PushOpen) async -> CallOutcome {
        await submit(.trackPushOpen(open))
    }

    /// Handles a push payload: its `itbl` block (campaign, template, message) is tracked as an open
    /// and kept as attribution.
    ///
    /// A payload without an `itbl` message id completes at once as
    /// `CallOutcome.applied(project:)`, with nothing sent. Inline: runs against the project the
    /// SDK is on now, even during a switch; never held. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func handlePush(payload: [String: DataValue], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.handlePush(payload: payload), completion)
    }

    /// The async form of ``handlePush(payload:completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func handlePush(payload: [String: DataValue]) async -> CallOutcome {
        await submit(.handlePush(payload: payload))
    }

    /// Fetches up to `count` in-app messages (`inApp/getMessages`); their ids are then in
    /// ``inAppMessageIDs``.
    ///
    /// Rejected when `count` is outside 1...100. Messages that arrive after the instance that asked
    /// was replaced by a switch are not kept. Gated: during a switch it is held, and runs against
    /// the new project when the switch lands. Outcomes: `CallOutcome.delivered(project:status:)`
    /// once the project answered 2xx, else a failure or discard as for every request
    /// (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func fetchInAppMessages(count: Int = 10, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppFetch(count: count), completion)
    }

    /// The async form of ``fetchInAppMessages(count:completion:)``: the same call, returning its
    /// outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func fetchInAppMessages(count: Int = 10) async -> CallOutcome {
        await submit(.inAppFetch(count: count))
    }

    /// Tracks that an in-app message was opened (`events/trackInAppOpen`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackInAppOpen(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppOpen(messageID: messageID), completion)
    }

    /// The async form of ``trackInAppOpen(messageID:completion:)``: the same call, returning its
    /// outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackInAppOpen(messageID: String) async -> CallOutcome {
        await submit(.inAppOpen(messageID: messageID))
    }

    /// Tracks a click on `url` in an in-app message (`events/trackInAppClick`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackInAppClick(messageID: String, url: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClick(messageID: messageID, url: url), completion)
    }

    /// The async form of ``trackInAppClick(messageID:url:completion:)``: the same call, returning
    /// its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackInAppClick(messageID: String, url: String) async -> CallOutcome {
        await submit(.inAppClick(messageID: messageID, url: url))
    }

    /// Tracks that an in-app message was closed, by a click on `url` if given
    /// (`events/trackInAppClose`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackInAppClose(messageID: String, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClose(messageID: messageID, url: url), completion)
    }

    /// The async form of ``trackInAppClose(messageID:url:completion:)``: the same call, returning
    /// its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackInAppClose(messageID: String, url: String? = nil) async -> CallOutcome {
        await submit(.inAppClose(messageID: messageID, url: url))
    }

    /// Tracks that an in-app message was delivered (`events/trackInAppDelivery`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackInAppDelivery(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppDelivery(messageID: messageID), completion)
    }

    /// The async form of ``trackInAppDelivery(messageID:completion:)``: the same call, returning
    /// its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackInAppDelivery(messageID: String) async -> CallOutcome {
        await submit(.inAppDelivery(messageID: messageID))
    }

    /// Consumes (removes) an in-app message on the platform (`events/inAppConsume`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func inAppConsume(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppConsume(messageID: messageID), completion)
    }

    /// The async form of ``inAppConsume(messageID:completion:)``: the same call, returning its
    /// outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func inAppConsume(messageID: String) async -> CallOutcome {
        await submit(.inAppConsume(messageID: messageID))
    }

    /// Fetches embedded messages (`embedded-messaging/messages`); their ids are then in
    /// ``embeddedMessageIDs``.
    ///
    /// Messages that arrive after the instance that asked was replaced by a switch are not kept.
    /// Gated: during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func fetchEmbeddedMessages(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedFetch, completion)
    }

    /// The async form of ``fetchEmbeddedMessages(completion:)``: the same call, returning its
    /// outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func fetchEmbeddedMessages() async -> CallOutcome {
        await submit(.embeddedFetch)
    }

    /// Tracks that an embedded message was received (`embedded-messaging/events/received`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackEmbeddedReceived(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedReceived(messageID: messageID), completion)
    }

    /// The async form of ``trackEmbeddedReceived(messageID:completion:)``: the same call, returning
    /// its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackEmbeddedReceived(messageID: String) async -> CallOutcome {
        await submit(.embeddedReceived(messageID: messageID))
    }

    /// Tracks a click on an embedded message, its button and target if given
    /// (`embedded-messaging/events/click`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url), completion)
    }

    /// The async form of ``trackEmbeddedClick(messageID:buttonID:url:completion:)``: the same call,
    /// returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil) async -> CallOutcome {
        await submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url))
    }

    /// Sets (or, with nil, clears) the attribution info of the project the SDK is on.
    ///
    /// Nothing is sent. Inline: runs against the project the SDK is on now, even during a switch;
    /// never held. Outcome: `CallOutcome.applied(project:)`, or `CallFailure.rejected(_:)`
    /// (journaled as refused) when a switch already cleared that project's storage: attribution
    /// never reaches another project.
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func setAttributionInfo(_ info: AttributionInfo?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setAttribution(info), completion)
    }

    /// The async form of ``setAttributionInfo(_:completion:)``: the same call, returning its
    /// outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func setAttributionInfo(_ info: AttributionInfo?) async -> CallOutcome {
        await submit(.setAttribution(info))
    }

    /// Completes once every call made before it is in the journal and durable: killing the process
    /// afterwards loses none of them.
    ///
    /// Waits for the journal's sync (group commit), never for the network. Never held by a switch.
    /// Outcome: `CallOutcome.applied(project:)`, or `CallFailure.retriesExhausted(_:)` saying
    /// why the journal is not durable (a failed write or sync; see ``journalFailure``).
    ///
    /// Returns at once; `completion`, if given, runs once on ``SDKConfiguration/callbackQueue``.
    public func flush(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.flush, completion)
    }

    /// The async form of ``flush(completion:)``: the same call, returning its outcome.
    ///
    /// It posts the call before it suspends (the call keeps its place among the calling thread's
    /// calls) and returns the outcome the completion form reports, once it is decided.
    @discardableResult
    public func flush() async -> CallOutcome {
        await submit(.flush)
    }

}
