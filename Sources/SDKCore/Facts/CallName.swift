/// The public calls, by name (the names `replay audit --call` accepts).
package enum CallName: String, Sendable, Hashable, CaseIterable {
    case initialize, switchProject
    case setEmail, setUserId, updateEmail, updateUser, updateCart, trackPurchase, track
    case registerToken, disableDevice, logoutUser
    case trackPushOpen, handlePush
    case inAppFetch, inAppOpen, inAppClick, inAppClose, inAppDelivery, inAppConsume
    case embeddedFetch, embeddedReceived, embeddedClick
    case setAttribution, flush
    case handleUniversalLink

    /// How a call made while a switch runs is treated.
    public enum SwitchBehavior: Sendable {
        /// Queued behind the gate and replayed, in order, against the project the switch lands on.
        case gated
        /// Run at once against the project the SDK is on (they carry that project's ids).
        case inline
        /// Handled by the switch machinery itself (initialize, switchProject, flush).
        case control
    }

    public var switchBehavior: SwitchBehavior {
        switch self {
        case .setEmail, .setUserId, .updateEmail, .updateUser, .updateCart, .trackPurchase, .track,
             .registerToken, .disableDevice, .logoutUser, .inAppFetch, .embeddedFetch:
            .gated
        case .trackPushOpen, .handlePush, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
             .embeddedReceived, .embeddedClick, .setAttribution, .handleUniversalLink:
            .inline
        case .initialize, .switchProject, .flush:
            .control
        }
    }
}
