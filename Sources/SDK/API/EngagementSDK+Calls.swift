import Foundation

// The public calls. Each has a completion form and an async form; both return at once to the
// caller and keep the order of calls made from one thread.
extension EngagementSDK {
    /// Sets the user's email (nil forgets it; also forgets the user id). Gated during a switch.
    public func setEmail(_ email: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setEmail(email), completion)
    }

    /// Sets the user's email (nil forgets it; also forgets the user id). Gated during a switch.
    @discardableResult
    public func setEmail(_ email: String?) async -> CallOutcome {
        await submit(.setEmail(email))
    }

    /// Sets the user's id (nil forgets it; also forgets the email). Gated during a switch.
    public func setUserId(_ userId: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setUserId(userId), completion)
    }

    /// Sets the user's id (nil forgets it; also forgets the email). Gated during a switch.
    @discardableResult
    public func setUserId(_ userId: String?) async -> CallOutcome {
        await submit(.setUserId(userId))
    }

    /// Changes the user's email on the platform (`users/updateEmail`); the SDK follows the new email.
    public func updateEmail(_ newEmail: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateEmail(newEmail), completion)
    }

    /// Changes the user's email on the platform (`users/updateEmail`); the SDK follows the new email.
    @discardableResult
    public func updateEmail(_ newEmail: String) async -> CallOutcome {
        await submit(.updateEmail(newEmail))
    }

    /// Updates the user's profile fields (`users/update`).
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects), completion)
    }

    /// Updates the user's profile fields (`users/update`).
    @discardableResult
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true) async -> CallOutcome {
        await submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects))
    }

    /// Replaces the user's cart (`commerce/updateCart`). Held for an unknown user until identified.
    public func updateCart(items: [CommerceItem], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateCart(items: items), completion)
    }

    /// Replaces the user's cart (`commerce/updateCart`). Held for an unknown user until identified.
    @discardableResult
    public func updateCart(items: [CommerceItem]) async -> CallOutcome {
        await submit(.updateCart(items: items))
    }

    /// Tracks a purchase (`commerce/trackPurchase`). Held for an unknown user until identified.
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPurchase(total: total, items: items, dataFields: dataFields), completion)
    }

    /// Tracks a purchase (`commerce/trackPurchase`). Held for an unknown user until identified.
    @discardableResult
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil) async -> CallOutcome {
        await submit(.trackPurchase(total: total, items: items, dataFields: dataFields))
    }

    /// Tracks a custom event (`events/track`). Held for an unknown user until identified.
    public func track(_ event: String, dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.track(event: event, dataFields: dataFields), completion)
    }

    /// Tracks a custom event (`events/track`). Held for an unknown user until identified.
    @discardableResult
    public func track(_ event: String, dataFields: [String: DataValue]? = nil) async -> CallOutcome {
        await submit(.track(event: event, dataFields: dataFields))
    }

    /// Registers the device's push token (`users/registerDeviceToken`), now or once the user is known.
    public func registerToken(_ token: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.registerToken(token), completion)
    }

    /// Registers the device's push token (`users/registerDeviceToken`), now or once the user is known.
    @discardableResult
    public func registerToken(_ token: String) async -> CallOutcome {
        await submit(.registerToken(token))
    }

    /// Disables the device's push token for the user (`users/disableDevice`).
    public func disableDevice(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.disableDevice, completion)
    }

    /// Disables the device's push token for the user (`users/disableDevice`).
    @discardableResult
    public func disableDevice() async -> CallOutcome {
        await submit(.disableDevice)
    }

    /// Logs the user out: disables the device, purges queued requests (keeping disableDevice ones), forgets the user.
    public func logoutUser(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.logoutUser, completion)
    }

    /// Logs the user out: disables the device, purges queued requests (keeping disableDevice ones), forgets the user.
    @discardableResult
    public func logoutUser() async -> CallOutcome {
        await submit(.logoutUser)
    }

    /// Tracks that the user opened a push (`events/trackPushOpen`), against the project the SDK is on now, even during a switch.
    public func trackPushOpen(_ open: PushOpen, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPushOpen(open), completion)
    }

    /// Tracks that the user opened a push (`events/trackPushOpen`), against the project the SDK is on now, even during a switch.
    @discardableResult
    public func trackPushOpen(_ open: PushOpen) async -> CallOutcome {
        await submit(.trackPushOpen(open))
    }

    /// Handles a push payload: its `itbl` block (campaign, template, message) is tracked as an open and kept as attribution. Never held for a switch.
    public func handlePush(payload: [String: DataValue], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.handlePush(payload: payload), completion)
    }

    /// Handles a push payload: its `itbl` block (campaign, template, message) is tracked as an open and kept as attribution. Never held for a switch.
    @discardableResult
    public func handlePush(payload: [String: DataValue]) async -> CallOutcome {
        await submit(.handlePush(payload: payload))
    }

    /// Fetches in-app messages (`inApp/getMessages`); their ids are then in ``inAppMessageIDs``.
    public func fetchInAppMessages(count: Int = 10, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppFetch(count: count), completion)
    }

    /// Fetches in-app messages (`inApp/getMessages`); their ids are then in ``inAppMessageIDs``.
    @discardableResult
    public func fetchInAppMessages(count: Int = 10) async -> CallOutcome {
        await submit(.inAppFetch(count: count))
    }

    /// Tracks that an in-app message was opened.
    public func trackInAppOpen(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppOpen(messageID: messageID), completion)
    }

    /// Tracks that an in-app message was opened.
    @discardableResult
    public func trackInAppOpen(messageID: String) async -> CallOutcome {
        await submit(.inAppOpen(messageID: messageID))
    }

    /// Tracks a click in an in-app message.
    public func trackInAppClick(messageID: String, url: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClick(messageID: messageID, url: url), completion)
    }

    /// Tracks a click in an in-app message.
    @discardableResult
    public func trackInAppClick(messageID: String, url: String) async -> CallOutcome {
        await submit(.inAppClick(messageID: messageID, url: url))
    }

    /// Tracks that an in-app message was closed.
    public func trackInAppClose(messageID: String, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClose(messageID: messageID, url: url), completion)
    }

    /// Tracks that an in-app message was closed.
    @discardableResult
    public func trackInAppClose(messageID: String, url: String? = nil) async -> CallOutcome {
        await submit(.inAppClose(messageID: messageID, url: url))
    }

    /// Tracks that an in-app message was delivered.
    public func trackInAppDelivery(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppDelivery(messageID: messageID), completion)
    }

    /// Tracks that an in-app message was delivered.
    @discardableResult
    public func trackInAppDelivery(messageID: String) async -> CallOutcome {
        await submit(.inAppDelivery(messageID: messageID))
    }

    /// Consumes (removes) an in-app message.
    public func inAppConsume(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppConsume(messageID: messageID), completion)
    }

    /// Consumes (removes) an in-app message.
    @discardableResult
    public func inAppConsume(messageID: String) async -> CallOutcome {
        await submit(.inAppConsume(messageID: messageID))
    }

    /// Fetches embedded messages (`embedded-messaging/messages`); their ids are then in ``embeddedMessageIDs``.
    public func fetchEmbeddedMessages(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedFetch, completion)
    }

    /// Fetches embedded messages (`embedded-messaging/messages`); their ids are then in ``embeddedMessageIDs``.
    @discardableResult
    public func fetchEmbeddedMessages() async -> CallOutcome {
        await submit(.embeddedFetch)
    }

    /// Tracks that an embedded message was received.
    public func trackEmbeddedReceived(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedReceived(messageID: messageID), completion)
    }

    /// Tracks that an embedded message was received.
    @discardableResult
    public func trackEmbeddedReceived(messageID: String) async -> CallOutcome {
        await submit(.embeddedReceived(messageID: messageID))
    }

    /// Tracks a click on an embedded message.
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url), completion)
    }

    /// Tracks a click on an embedded message.
    @discardableResult
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil) async -> CallOutcome {
        await submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url))
    }

    /// Sets (or clears) the attribution info for the project the SDK is on. Refused, and journaled as refused, when that project's storage was already cleared by a switch.
    public func setAttributionInfo(_ info: AttributionInfo?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setAttribution(info), completion)
    }

    /// Sets (or clears) the attribution info for the project the SDK is on. Refused, and journaled as refused, when that project's storage was already cleared by a switch.
    @discardableResult
    public func setAttributionInfo(_ info: AttributionInfo?) async -> CallOutcome {
        await submit(.setAttribution(info))
    }

    /// Completes once every call made before it is in the journal and durable: killing the process afterwards loses none of them.
    public func flush(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.flush, completion)
    }

    /// Completes once every call made before it is in the journal and durable: killing the process afterwards loses none of them.
    @discardableResult
    public func flush() async -> CallOutcome {
        await submit(.flush)
    }

}
