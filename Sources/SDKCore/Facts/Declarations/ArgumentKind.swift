/// What one argument of a public call is: its value's shape, its limit, its privacy class. The
/// codec, validation, redaction and renderers read an argument through its kind.
package enum ArgumentKind: Sendable, Hashable {
    /// An email address: at most ``CallLimits/emailBytes``, with an `@`.
    case email
    /// A user id: at most ``CallLimits/userIDBytes``.
    case userID
    /// A device's push token: at most ``CallLimits/pushTokenBytes``.
    case pushToken
    /// An event name, a message or button id: at most ``CallLimits/identifierBytes``.
    case identifier
    /// A URL the user saw or clicked: at most ``CallLimits/urlBytes``.
    case url
    /// A universal link: an http(s) URL of at most ``CallLimits/urlBytes``.
    case link
    /// Why a call was not kept whole (an over-limit call's reason).
    case reason
    /// A data-fields object, held to the data limits of ``CallLimits``.
    case dataFields
    /// The items of a cart or purchase: at most ``CallLimits/items``, each checked.
    case items
    /// How many in-app messages a fetch asks for: 1 to ``CallLimits/messagesPerFetch``.
    case messageCount
    /// A purchase's total: finite and not negative.
    case amount
    /// A yes or no.
    case flag
    /// A project: its key, endpoint and region.
    case project
    /// An opened push's ids and data fields.
    case pushOpen
    /// Which campaign, template and message brought the user in.
    case attribution
    /// The name of another call (an over-limit call's).
    case callName

    /// What the value may reveal. A composite value (items, a push open) is `personal`: its
    /// data fields are; its ids and amounts are kept.
    package var privacy: PrivacyClass {
        switch self {
        case .email, .userID, .pushToken, .dataFields, .items, .pushOpen: .personal
        case .url, .link, .reason: .freeText
        case .identifier, .attribution, .callName: .identifier
        case .messageCount, .amount, .flag, .project: .structural
        }
    }

    /// The kind of token a redacted copy gives a personal text (`email`, `user`, `token`);
    /// nil for the other kinds.
    package var tokenKind: String? {
        switch self {
        case .email: "email"
        case .userID: "user"
        case .pushToken: "token"
        case .identifier, .url, .link, .reason, .dataFields, .items, .messageCount, .amount, .flag, .project,
             .pushOpen, .attribution, .callName:
            nil
        }
    }

    /// The most UTF-8 bytes a text of this kind may have; nil for kinds that are not text or
    /// are bounded otherwise.
    package var byteLimit: Int? {
        switch self {
        case .email: CallLimits.emailBytes
        case .userID: CallLimits.userIDBytes
        case .pushToken: CallLimits.pushTokenBytes
        case .identifier: CallLimits.identifierBytes
        case .url, .link: CallLimits.urlBytes
        case .reason, .dataFields, .items, .messageCount, .amount, .flag, .project, .pushOpen, .attribution, .callName: nil
        }
    }
}
