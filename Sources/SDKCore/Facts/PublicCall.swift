/// A public call with its arguments, as recorded in the journal.
///
/// The cases whose arguments are larger than a `track`'s are boxed (`indirect`): the enum is as
/// large as its largest unboxed case, and every call is moved through the mailbox and the
/// engine in it, unboxed itself (``Fact/callReceived(_:)``).
package enum PublicCall: Sendable, Hashable {
    indirect case initialize(ProjectRef)
    indirect case switchProject(ProjectRef)
    case setEmail(String?)
    case setUserId(String?)
    case updateEmail(String)
    case updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool)
    case updateCart(items: [CommerceItem])
    case trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]?)
    case track(event: String, dataFields: [String: DataValue]?)
    case registerToken(String)
    case disableDevice
    case logoutUser
    indirect case trackPushOpen(PushOpen)
    /// A push payload handed to the SDK (the `itbl` block carries campaign, template, message).
    case handlePush(payload: [String: DataValue])
    case inAppFetch(count: Int)
    case inAppOpen(messageID: String)
    indirect case inAppClick(messageID: String, url: String)
    indirect case inAppClose(messageID: String, url: String?)
    case inAppDelivery(messageID: String)
    case inAppConsume(messageID: String)
    case embeddedFetch
    case embeddedReceived(messageID: String)
    indirect case embeddedClick(messageID: String, buttonID: String?, url: String?)
    indirect case setAttribution(AttributionInfo?)
    case flush
    /// A universal link the app was opened with: a tracked link is resolved into its
    /// destination and attribution.
    case handleUniversalLink(url: String)
    /// A call whose arguments were over their limits (``CallLimits``), as the journal keeps it:
    /// its name and why it was rejected, not the arguments, which may be of any size.
    indirect case oversized(CallName, reason: String)

    public var name: CallName {
        switch self {
        case .initialize: .initialize
        case .switchProject: .switchProject
        case .setEmail: .setEmail
        case .setUserId: .setUserId
        case .updateEmail: .updateEmail
        case .updateUser: .updateUser
        case .updateCart: .updateCart
        case .trackPurchase: .trackPurchase
        case .track: .track
        case .registerToken: .registerToken
        case .disableDevice: .disableDevice
        case .logoutUser: .logoutUser
        case .trackPushOpen: .trackPushOpen
        case .handlePush: .handlePush
        case .inAppFetch: .inAppFetch
        case .inAppOpen: .inAppOpen
        case .inAppClick: .inAppClick
        case .inAppClose: .inAppClose
        case .inAppDelivery: .inAppDelivery
        case .inAppConsume: .inAppConsume
        case .embeddedFetch: .embeddedFetch
        case .embeddedReceived: .embeddedReceived
        case .embeddedClick: .embeddedClick
        case .setAttribution: .setAttribution
        case .flush: .flush
        case .handleUniversalLink: .handleUniversalLink
        case .oversized(let name, _): name
        }
    }
}
