extension PublicCall {
    /// The project configuration the call carries (its key's fingerprint, region, endpoint and
    /// label): initialize's and switchProject's; nil for every other call.
    package var carriedProject: ProjectRef? {
        switch self {
        case .initialize(let project), .switchProject(let project):
            project
        case .setEmail, .setUserId, .updateEmail, .updateUser, .logoutUser,
             .updateCart, .trackPurchase, .track,
             .registerToken, .disableDevice, .trackPushOpen, .handlePush,
             .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
             .embeddedFetch, .embeddedReceived, .embeddedClick,
             .setAttribution, .handleUniversalLink, .flush, .setConsent, .eraseLocalData,
             .oversized:
            nil
        }
    }
}
