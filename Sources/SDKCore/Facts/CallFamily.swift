/// The families public calls are grouped in: each family's calls run in one file
/// (`SDKState+<Family>Calls.swift`), so a new call touches its family's file and the table in
/// ``CallName/family``.
enum CallFamily: Sendable, CaseIterable {
    /// Who the user is: email, user id, their profile, logout.
    case identity
    /// Events and commerce: custom events, purchases, the cart.
    case event
    /// Push: the device's token, its disable, push opens.
    case push
    /// In-app and embedded messages.
    case message
    /// Attribution and the tracked links that carry it.
    case attribution
    /// Run by the switch machinery itself: initialize, switchProject, flush.
    case control
}

extension CallName {
    /// The call's family (the table ``SDKState`` dispatches a call's run on).
    var family: CallFamily {
        switch self {
        case .setEmail, .setUserId, .updateEmail, .updateUser, .logoutUser: .identity
        case .track, .trackPurchase, .updateCart: .event
        case .registerToken, .disableDevice, .trackPushOpen, .handlePush: .push
        case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
             .embeddedFetch, .embeddedReceived, .embeddedClick:
            .message
        case .setAttribution, .handleUniversalLink: .attribution
        case .initialize, .switchProject, .flush: .control
        }
    }
}
