import Foundation
import SDKCore

// The public calls. Each returns at once, in any context, keeps the order of calls made from one
// thread and reports its outcome to an optional completion; `outcome` has the forms that await it.
extension EngagementSDK {
    /// The calls in the form that awaits their outcome: `await sdk.outcome.track("cart_viewed")`
    /// returns the `CallOutcome` the completion of `sdk.track("cart_viewed")` would receive.
    ///
    /// Each ``AwaitedCalls`` method says what it waits for (a request waits for the project's
    /// answer: minutes or hours while offline). The calls on the SDK itself never wait: use them
    /// wherever the outcome is not needed before going on.
    public var outcome: AwaitedCalls { AwaitedCalls(sdk: self) }

    /// Sets the user's email (nil forgets it); either way the user id is forgotten.
    ///
    /// Nothing is sent for it. Once the user is known, the events held for an unknown user are sent
    /// and the push token is registered for them. Rejected when `email` is empty, has no `@`, a
    /// control character or more than 1,024 bytes. Gated: during a switch it is held, and runs
    /// against the new project when the switch lands. Outcome: `CallOutcome.applied(project:)` as
    /// soon as it is processed.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.setEmail(...)` (``AwaitedCalls/setEmail(_:)``).
    public func setEmail(_ email: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setEmail(email), completion)
    }

    /// Sets the user's id (nil forgets it); either way the email is forgotten.
    ///
    /// Nothing is sent for it. Once the user is known, the events held for an unknown user are sent
    /// and the push token is registered for them. Rejected when `userId` is empty, has a control
    /// character or more than 1,024 bytes. Gated: during a switch it is held, and runs against the
    /// new project when the switch lands. Outcome: `CallOutcome.applied(project:)` as soon as it
    /// is processed.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.setUserId(...)` (``AwaitedCalls/setUserId(_:)``).
    public func setUserId(_ userId: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setUserId(userId), completion)
    }

    /// Changes the user's email on the platform (`users/updateEmail`).
    ///
    /// The SDK follows the new email when the call is processed, not when the platform answers.
    /// Rejected, with nothing sent, when no user is identified or `newEmail` is not a usable email.
    /// Gated: during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.updateEmail(...)` (``AwaitedCalls/updateEmail(_:)``).
    public func updateEmail(_ newEmail: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateEmail(newEmail), completion)
    }

    /// Updates the user's profile fields (`users/update`), merging nested objects unless told not
    /// to.
    ///
    /// Rejected, with nothing sent, when no user is identified or the fields encode to more than 64
    /// KiB of JSON. Gated: during a switch it is held, and runs against the new project when the
    /// switch lands. Outcomes: `CallOutcome.delivered(project:status:)` once the project answered
    /// 2xx, else a failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.updateUser(...)`
    /// (``AwaitedCalls/updateUser(dataFields:mergeNestedObjects:)``).
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects), completion)
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
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.updateCart(...)` (``AwaitedCalls/updateCart(items:)``).
    public func updateCart(items: [CommerceItem], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateCart(items: items), completion)
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
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackPurchase(...)`
    /// (``AwaitedCalls/trackPurchase(total:items:dataFields:)``).
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPurchase(total: total, items: items, dataFields: dataFields), completion)
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
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.track(...)` (``AwaitedCalls/track(_:dataFields:)``).
    public func track(_ event: String, dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.track(event: event, dataFields: dataFields), completion)
    }

    /// Registers the device's push token (`users/registerDeviceToken`).
    ///
    /// The SDK keeps the token at once. For a known user it is sent now (outcome as for every
    /// request); for an unknown user the call completes at once as
    /// `CallOutcome.applied(project:)` and the token is registered, by the SDK itself, once the
    /// user is identified. Gated: during a switch it is held, and runs against the new project when
    /// the switch lands.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.registerToken(...)` (``AwaitedCalls/registerToken(_:)``).
    public func registerToken(_ token: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.registerToken(token), completion)
    }

    /// Disables the device's push token for the user (`users/disableDevice`).
    ///
    /// Rejected, with nothing sent, when no push token is registered. Never discarded for a full
    /// delivery queue, nor purged by a logout or a switch. Gated: during a switch it is held, and
    /// runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.disableDevice()` (``AwaitedCalls/disableDevice()``).
    public func disableDevice(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.disableDevice, completion)
    }

    /// Logs the user out: disables the device, purges queued requests, forgets the user.
    ///
    /// Modules hear `ModuleSignal.willLogout` (awaited on their own tasks, within their bound;
    /// this call does not wait for them). Queued requests other than disables resolve as
    /// `DiscardReason.purgedByLogout`; for a known user with a push token the SDK queues its own
    /// `users/disableDevice`. Gated: during a switch it is held, and runs against the new project
    /// when the switch lands. Outcome: `CallOutcome.applied(project:)` as soon as it is
    /// processed, not when the disable is delivered.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.logoutUser()` (``AwaitedCalls/logoutUser()``).
    public func logoutUser(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.logoutUser, completion)
    }

    /// Tracks that the user opened a push (`events/trackPushOpen`).
    ///
    /// A push that names its campaign and template also becomes the project's attribution. Inline:
    /// runs against the project the SDK is on now, even during a switch; never held. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackPushOpen(...)` (``AwaitedCalls/trackPushOpen(_:)``).
    public func trackPushOpen(_ open: PushOpen, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPushOpen(open), completion)
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
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.handlePush(...)` (``AwaitedCalls/handlePush(payload:)``).
    public func handlePush(payload: [String: DataValue], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.handlePush(payload: payload), completion)
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
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.fetchInAppMessages(...)` (``AwaitedCalls/fetchInAppMessages(count:)``).
    public func fetchInAppMessages(count: Int = 10, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppFetch(count: count), completion)
    }

    /// Tracks that an in-app message was opened (`events/trackInAppOpen`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackInAppOpen(...)` (``AwaitedCalls/trackInAppOpen(messageID:)``).
    public func trackInAppOpen(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppOpen(messageID: messageID), completion)
    }

    /// Tracks a click on `url` in an in-app message (`events/trackInAppClick`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackInAppClick(...)` (``AwaitedCalls/trackInAppClick(messageID:url:)``).
    public func trackInAppClick(messageID: String, url: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClick(messageID: messageID, url: url), completion)
    }

    /// Tracks that an in-app message was closed, by a click on `url` if given
    /// (`events/trackInAppClose`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackInAppClose(...)` (``AwaitedCalls/trackInAppClose(messageID:url:)``).
    public func trackInAppClose(messageID: String, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClose(messageID: messageID, url: url), completion)
    }

    /// Tracks that an in-app message was delivered (`events/trackInAppDelivery`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackInAppDelivery(...)`
    /// (``AwaitedCalls/trackInAppDelivery(messageID:)``).
    public func trackInAppDelivery(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppDelivery(messageID: messageID), completion)
    }

    /// Consumes (removes) an in-app message on the platform (`events/inAppConsume`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.inAppConsume(...)` (``AwaitedCalls/inAppConsume(messageID:)``).
    public func inAppConsume(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppConsume(messageID: messageID), completion)
    }

    /// Fetches embedded messages (`embedded-messaging/messages`); their ids are then in
    /// ``embeddedMessageIDs``.
    ///
    /// Messages that arrive after the instance that asked was replaced by a switch are not kept.
    /// Gated: during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.fetchEmbeddedMessages()` (``AwaitedCalls/fetchEmbeddedMessages()``).
    public func fetchEmbeddedMessages(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedFetch, completion)
    }

    /// Tracks that an embedded message was received (`embedded-messaging/events/received`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackEmbeddedReceived(...)`
    /// (``AwaitedCalls/trackEmbeddedReceived(messageID:)``).
    public func trackEmbeddedReceived(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedReceived(messageID: messageID), completion)
    }

    /// Tracks a click on an embedded message, its button and target if given
    /// (`embedded-messaging/events/click`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.trackEmbeddedClick(...)`
    /// (``AwaitedCalls/trackEmbeddedClick(messageID:buttonID:url:)``).
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url), completion)
    }

    /// Sets (or, with nil, clears) the attribution info of the project the SDK is on.
    ///
    /// Nothing is sent. Inline: runs against the project the SDK is on now, even during a switch;
    /// never held. Outcome: `CallOutcome.applied(project:)`, or `CallFailure.rejected(_:)`
    /// (journaled as refused) when a switch already cleared that project's storage: attribution
    /// never reaches another project.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.setAttributionInfo(...)` (``AwaitedCalls/setAttributionInfo(_:)``).
    public func setAttributionInfo(_ info: AttributionInfo?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setAttribution(info), completion)
    }

    /// Completes once every call made before it is in the journal and durable: killing the process
    /// afterwards loses none of them.
    ///
    /// Waits for the journal's sync (group commit), never for the network. Never held by a switch.
    /// Outcome: `CallOutcome.applied(project:)`, or `CallFailure.retriesExhausted(_:)` saying
    /// why the journal is not durable (a failed write or sync; see ``journalFailure``).
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited); `completion`,
    /// if given, runs once on ``SDKConfiguration/callbackQueue``. To await the outcome instead:
    /// `await sdk.outcome.flush()` (``AwaitedCalls/flush()``).
    public func flush(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.flush, completion)
    }
}
