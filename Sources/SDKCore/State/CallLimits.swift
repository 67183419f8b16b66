/// The limits every string, count and size the app hands over is held to. A call over one is
/// rejected at once (`CallFailure.rejected(_:)`), naming the field and its limit, e.g.
/// `items[0].name: 3,145,728 bytes, at most 1,024`; the journal then keeps only the call's name and
/// that reason. Sizes are checked before anything else about a call, over every argument: a call
/// that is also unusable otherwise (a control character, a price that is not a number) is still
/// journaled by its name and size problem only, never whole. Texts are counted in UTF-8 bytes,
/// never in characters (one character may be megabytes of combining marks).
///
/// What the app hands over outside a call is bounded here too: a project's label and API key,
/// the name of a system notification (`notify(_:)`), the SDK version and the modules'
/// names, versions and notification names (checked when the SDK is made).
///
/// They are chosen so that no fact comes near the journal's record limit, and, with the
/// queue's and the gate's bounds (`EngineRules`), no state the SDK can reach is too large for
/// one snapshot record (docs/ARCHITECTURE.md, "Bounds").
public enum CallLimits {
    /// An email (`setEmail`, `updateEmail`): the longest address SMTP carries.
    public static let emailBytes = 254
    /// A user id.
    public static let userIDBytes = 512
    /// A push token (APNs tokens are 64 hex digits, FCM tokens about 160 characters).
    public static let pushTokenBytes = 512
    /// An event name, a message id, a button id, an item's id or sku.
    public static let identifierBytes = 256
    /// An item's name.
    public static let itemNameBytes = 1_024
    /// A URL: a clicked or target URL, a universal link.
    public static let urlBytes = 4_096
    /// A data field's key, at any depth.
    public static let dataKeyBytes = 256
    /// A data field's string value, at any depth.
    public static let dataStringBytes = 16 << 10
    /// One data-fields object (a call's, an item's, a push payload), as JSON.
    public static let dataFieldsBytes = 64 << 10
    /// The fields at the top of one data-fields object.
    public static let dataFieldsCount = 1_000
    /// The items of a cart or a purchase.
    public static let items = 500
    /// Everything one call carries, as JSON: its strings, items and data fields together.
    public static let callBytes = 256 << 10
    /// Messages one fetch asks for (`fetchInAppMessages(count:)`), and the most an answer's
    /// messages the SDK keeps for any fetch.
    public static let messagesPerFetch = 100

    /// A data-fields object's nesting, its own level included (an object of strings is 1 level;
    /// ``DataValue/maxDepth``).
    public static let dataDepth = DataValue.maxDepth
    /// A project's label (`Project.label`): a longer one is cut at a character boundary.
    public static let projectLabelBytes = 128
    /// A project's API key (`Project.init(apiKey:label:config:)` fails for a longer one): it is
    /// sent in a header and kept in the keyring.
    public static let apiKeyBytes = 256
    /// A system notification's name (`notify(_:)`; a longer one is journaled cut, ending in `…`,
    /// and reaches no module), and each name a module asks for.
    public static let notificationNameBytes = 256
    /// A module's name and its version (checked when the SDK is made).
    public static let moduleNameBytes = 256
    /// The SDK version sent in requests and journaled (`SDKConfiguration.sdkVersion`).
    public static let sdkVersionBytes = 64
    /// Modules plugged into one SDK (checked when the SDK is made).
    public static let modules = 64
    /// Notification names one module asks for (checked when the SDK is made).
    public static let notificationNamesPerModule = 64
    /// The longest identity a request names (an email or a user id).
    static let longestIdentityBytes = max(emailBytes, userIDBytes)
}
