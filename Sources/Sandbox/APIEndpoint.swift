/// The endpoints of the imitated API, named by their path after `/<region>/api/`: the one table
/// both backends route by (the Sandbox's ``SandboxAPI`` and the simulator's backend), so a path
/// or method it does not list gets one answer, 404, from either.
package enum APIEndpoint: String, CaseIterable, Sendable {
    case updateUser = "users/update"
    case updateEmail = "users/updateEmail"
    case registerDeviceToken = "users/registerDeviceToken"
    case disableDevice = "users/disableDevice"
    case trackEvent = "events/track"
    case trackEvents = "events/trackBulk"
    case trackPurchase = "commerce/trackPurchase"
    case updateCart = "commerce/updateCart"
    case trackPushOpen = "events/trackPushOpen"
    case trackInAppOpen = "events/trackInAppOpen"
    case trackInAppClick = "events/trackInAppClick"
    case trackInAppClose = "events/trackInAppClose"
    case trackInAppDelivery = "events/trackInAppDelivery"
    case consumeInApp = "events/inAppConsume"
    case embeddedMessageReceived = "embedded-messaging/events/received"
    case embeddedMessageClick = "embedded-messaging/events/click"
    case getInAppMessages = "inApp/getMessages"
    case getEmbeddedMessages = "embedded-messaging/messages"

    /// The only method the endpoint answers.
    package var method: String {
        switch self {
        case .getInAppMessages, .getEmbeddedMessages: "GET"
        case .updateUser, .updateEmail, .registerDeviceToken, .disableDevice, .trackEvent, .trackEvents, .trackPurchase,
             .updateCart, .trackPushOpen, .trackInAppOpen, .trackInAppClick, .trackInAppClose, .trackInAppDelivery,
             .consumeInApp, .embeddedMessageReceived, .embeddedMessageClick:
            "POST"
        }
    }

    /// The endpoint at `path` if it exists and answers `method`.
    package init?(path: String, method: String) {
        guard let endpoint = APIEndpoint(rawValue: path), endpoint.method == method else { return nil }
        self = endpoint
    }
}
