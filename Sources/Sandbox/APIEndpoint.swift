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

    /// What the platform makes of a request to an endpoint once its checks passed: the one place
    /// an endpoint says how both backends answer it (and, from that, its method).
    package enum Answer: Sendable {
        /// Stored, answered with the platform's plain success (a POST).
        case stored
        /// One event (a POST): the Sandbox refuses a name its project disallows; else stored.
        case trackedEvent
        /// A bulk of events (a POST), each accepted or refused on its own.
        case trackedEvents
        /// The project's in-app messages (a GET).
        case inAppMessages
        /// The project's embedded placements (a GET).
        case embeddedMessages
    }

    /// What the platform makes of a request to the endpoint.
    package var answer: Answer {
        switch self {
        case .trackEvent: .trackedEvent
        case .trackEvents: .trackedEvents
        case .getInAppMessages: .inAppMessages
        case .getEmbeddedMessages: .embeddedMessages
        case .updateUser, .updateEmail, .registerDeviceToken, .disableDevice, .trackPurchase, .updateCart, .trackPushOpen,
             .trackInAppOpen, .trackInAppClick, .trackInAppClose, .trackInAppDelivery, .consumeInApp,
             .embeddedMessageReceived, .embeddedMessageClick:
            .stored
        }
    }

    /// The only method the endpoint answers.
    package var method: String {
        switch answer {
        case .inAppMessages, .embeddedMessages: "GET"
        case .stored, .trackedEvent, .trackedEvents: "POST"
        }
    }

    /// The endpoint at `path` if it exists and answers `method`.
    package init?(path: String, method: String) {
        guard let endpoint = APIEndpoint(rawValue: path), endpoint.method == method else { return nil }
        self = endpoint
    }
}
