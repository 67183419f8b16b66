/// A public call with its arguments, as recorded in the journal.
///
/// The cases whose arguments are larger than a `track`'s are boxed (`indirect`): the enum is as
/// large as its largest unboxed case, and every call is moved through the mailbox and the
/// engine in it, unboxed itself (``Fact/callReceived(_:)``).
package enum PublicCall: Sendable, Hashable {
    /// A call the engine runs itself, never gated (initialize, switchProject, flush, setConsent,
    /// eraseLocalData).
    indirect case control(ControlCall)
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
    /// A universal link the app was opened with: a tracked link is resolved into its
    /// destination and attribution.
    case handleUniversalLink(url: String)
    /// A call whose arguments were over their limits (``CallLimits``), as the journal keeps it:
    /// its name and why it was rejected, not the arguments, which may be of any size.
    indirect case oversized(PublicCall.Name, reason: String)

    /// The call's name (an over-limit call's is the name of the call it stands for).
    package var name: PublicCall.Name {
        switch self {
        case .control(let control): control.name
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
        case .handleUniversalLink: .handleUniversalLink
        case .oversized(let name, _): name
        }
    }
}

// MARK: - Control calls

extension PublicCall {
    // Made as the app makes them; matched as ``control(_:)`` (``ControlCall``).

    package static func initialize(_ project: ProjectRef) -> PublicCall { .control(.initialize(project)) }
    package static func switchProject(_ project: ProjectRef) -> PublicCall { .control(.switchProject(project)) }
    package static let flush = PublicCall.control(.flush)
    package static func setConsent(granted: Bool) -> PublicCall { .control(.setConsent(granted: granted)) }
    package static let eraseLocalData = PublicCall.control(.eraseLocalData)
}

// MARK: - Names

extension PublicCall {
    /// A public call's name, with what is read of it on every call (its family and switch
    /// behaviour, as plain switches). Declared with its call: a new call adds its case here, to
    /// these switches, and its ``CallDeclaration`` below. Its raw values are the names `replay audit --call` accepts.
    package enum Name: String, Sendable, Hashable, CaseIterable {
        case initialize, switchProject
        case setEmail, setUserId, updateEmail, updateUser, updateCart, trackPurchase, track
        case registerToken, disableDevice, logoutUser
        case trackPushOpen, handlePush
        case inAppFetch, inAppOpen, inAppClick, inAppClose, inAppDelivery, inAppConsume
        case embeddedFetch, embeddedReceived, embeddedClick
        case setAttribution, flush
        case handleUniversalLink
        case setConsent, eraseLocalData

        /// How a call made while a switch runs is treated.
        package enum SwitchBehavior: Sendable, Hashable {
            /// Queued behind the gate and replayed, in order, against the project the switch
            /// lands on, once the delivery queue has `room` for what it would queue.
            case gated(room: HeldCallRoom)
            /// Run at once against the project the SDK is on (they carry that project's ids).
            case inline
            /// Handled by the engine itself, never gated (initialize, switchProject, flush,
            /// setConsent, eraseLocalData).
            case control
        }

        package var declaration: CallDeclaration {
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
            case .setConsent: .setConsent
            case .eraseLocalData: .eraseLocalData
            }
        }

        /// Whether the call waits behind the gate while a switch runs.
        package var isGated: Bool {
            if case .gated = switchBehavior { true } else { false }
        }

        /// How a call made while a switch runs is treated.
        package var switchBehavior: SwitchBehavior {
            switch self {
            case .setEmail, .setUserId: .gated(room: .identifying)
            case .logoutUser: .gated(room: .nothing)
            case .track, .trackPurchase, .updateCart: .gated(room: .heldEventWhileUnknown)
            case .updateEmail, .updateUser, .registerToken: .gated(room: .requestForKnownUser)
            case .disableDevice, .inAppFetch, .embeddedFetch: .gated(room: .itsRequest)
            case .trackPushOpen, .handlePush, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
                 .embeddedReceived, .embeddedClick, .setAttribution, .handleUniversalLink:
                .inline
            case .initialize, .switchProject, .flush, .setConsent, .eraseLocalData:
                .control
            }
        }

        /// The call's family (the table ``SDKState`` dispatches a call's run on).
        package var family: CallFamily {
            switch self {
            case .setEmail, .setUserId, .updateEmail, .updateUser, .logoutUser: .identity
            case .track, .trackPurchase, .updateCart: .event
            case .registerToken, .disableDevice, .trackPushOpen, .handlePush: .push
            case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
                 .embeddedFetch, .embeddedReceived, .embeddedClick:
                .message
            case .setAttribution, .handleUniversalLink: .attribution
            case .initialize, .switchProject, .flush, .setConsent, .eraseLocalData: .control
            }
        }
    }
}

// MARK: - Declarations

extension CallDeclaration {
    private typealias Argument = ArgumentDeclaration

    private static let project = Argument("project", json: "project", field: 2, .project, .required, text: .composite)
    private static let messageID = Argument("messageId", json: "message_id", field: 10, .identifier, .required, text: .quoted)
    private static let dataFields = Argument("dataFields", json: "data_fields", field: 4, .dataFields, .optional, text: .keys)

    static let initialize = CallDeclaration(.initialize, tag: 1, arguments: [project])
    static let switchProject = CallDeclaration(.switchProject, tag: 2, arguments: [project])
    static let setEmail = CallDeclaration(.setEmail, tag: 3, arguments: [
        Argument("email", json: "email", field: 3, .email, .optional, text: .quotedOrNil),
    ])
    static let setUserId = CallDeclaration(.setUserId, tag: 4, arguments: [
        Argument("userId", json: "user_id", field: 3, .userID, .optional, text: .quotedOrNil),
    ])
    static let updateEmail = CallDeclaration(.updateEmail, tag: 5, arguments: [
        Argument("newEmail", json: "new_email", field: 3, .email, .required, text: .quoted),
    ], request: .built(.updateEmail))
    static let updateUser = CallDeclaration(.updateUser, tag: 6, arguments: [
        Argument("dataFields", json: "data_fields", field: 4, .dataFields, .defaulted, text: .keys),
        Argument("mergeNestedObjects", json: "merge_nested_objects", field: 5, .flag, .defaulted, text: .choice(yes: "merge", no: "replace")),
    ], request: .post(path: "users/update"))
    static let updateCart = CallDeclaration(.updateCart, tag: 7, arguments: [
        Argument("items", json: "items", field: 6, .items, .defaulted, text: .itemCount),
    ], limitsTotalBytes: true, request: .built(.updateCart))
    static let trackPurchase = CallDeclaration(.trackPurchase, tag: 8, arguments: [
        Argument("total", json: "total", field: 7, .amount, .defaulted, text: .number),
        Argument("items", json: "items", field: 6, .items, .defaulted, text: .itemCount),
        dataFields,
    ], limitsTotalBytes: true, request: .built(.trackPurchase))
    static let track = CallDeclaration(.track, tag: 9, arguments: [
        Argument("eventName", json: "event", field: 3, .identifier, .required, text: .quoted),
        dataFields,
    ], request: .built(.track))
    static let registerToken = CallDeclaration(.registerToken, tag: 10, arguments: [
        Argument("token", json: "token", field: 3, .pushToken, .required, text: .quoted),
    ], request: .built(.registerToken))
    static let disableDevice = CallDeclaration(.disableDevice, tag: 11, request: .built(.disableDevice))
    static let logoutUser = CallDeclaration(.logoutUser, tag: 12, )
    static let trackPushOpen = CallDeclaration(.trackPushOpen, tag: 13, arguments: [
        Argument("pushOpen", json: nil, field: 8, .pushOpen, .required, text: .composite),
    ], request: .built(.trackPushOpen))
    static let handlePush = CallDeclaration(.handlePush, tag: 14, arguments: [
        Argument("payload", json: "payload", field: 4, .dataFields, .defaulted, text: .keys),
    ])
    static let inAppFetch = CallDeclaration(.inAppFetch, tag: 15, arguments: [
        Argument("count", json: "count", field: 9, .messageCount, .defaulted, text: .labelled("count")),
    ], request: .built(.inAppMessages))
    static let inAppOpen = CallDeclaration(.inAppOpen, tag: 16, arguments: [messageID], request: .post(path: "events/trackInAppOpen"))
    static let inAppClick = CallDeclaration(.inAppClick, tag: 17, arguments: [
        messageID,
        Argument("clickedUrl", json: "url", field: 11, .url, .defaulted, text: .plain),
    ], request: .post(path: "events/trackInAppClick"))
    static let inAppClose = CallDeclaration(.inAppClose, tag: 18, arguments: [
        messageID,
        Argument("clickedUrl", json: "url", field: 11, .url, .optional, text: .plain),
    ], request: .post(path: "events/trackInAppClose"))
    static let inAppDelivery = CallDeclaration(.inAppDelivery, tag: 19, arguments: [messageID], request: .post(path: "events/trackInAppDelivery"))
    static let inAppConsume = CallDeclaration(.inAppConsume, tag: 20, arguments: [messageID], request: .post(path: "events/inAppConsume"))
    static let embeddedFetch = CallDeclaration(.embeddedFetch, tag: 21, request: .built(.embeddedMessages))
    static let embeddedReceived = CallDeclaration(.embeddedReceived, tag: 22, arguments: [messageID], request: .post(path: "embedded-messaging/events/received"))
    static let embeddedClick = CallDeclaration(.embeddedClick, tag: 23, arguments: [
        messageID,
        Argument("buttonIdentifier", json: "button_id", field: 12, .identifier, .optional, text: .labelled("button")),
        Argument("targetUrl", json: "url", field: 11, .url, .optional, text: .plain),
    ], request: .post(path: "embedded-messaging/events/click"))
    static let setAttribution = CallDeclaration(.setAttribution, tag: 24, arguments: [
        Argument("attribution", json: "attribution", field: 13, .attribution, .optional, text: .composite),
    ])
    static let flush = CallDeclaration(.flush, tag: 25, )
    static let handleUniversalLink = CallDeclaration(.handleUniversalLink, tag: 26, arguments: [
        Argument("url", json: "url", field: 14, .link, .required, text: .plain),
    ])
    /// The journal's stand-in for a call over its limits (``PublicCall/name`` is the call's).
    static let oversized = CallDeclaration(.flush, tag: 27, arguments: [
        Argument("call", json: "oversized", field: 15, .callName, .required, text: .hidden),
        Argument("reason", json: "reason", field: 16, .reason, .defaulted, text: .oversized),
    ])
    static let setConsent = CallDeclaration(.setConsent, tag: 28, arguments: [
        Argument("granted", json: "granted", field: 17, .flag, .required, text: .choice(yes: "granted", no: "declined")),
    ])
    static let eraseLocalData = CallDeclaration(.eraseLocalData, tag: 29, )

    /// Every declaration, over-limit calls' last.
    package static let all: [CallDeclaration] = PublicCall.Name.allCases.map(\.declaration) + [oversized]

    /// The declaration of the call tagged `tag` in a journal record.
    package static func tagged(_ tag: UInt64) -> CallDeclaration? {
        let index = Int(truncatingIfNeeded: tag) - 1
        return byTag.indices.contains(index) ? byTag[index] : nil
    }

    private static let byTag: [CallDeclaration] = all.sorted { $0.tag < $1.tag }
}

// MARK: - Arguments

extension PublicCall {
    /// The call's declaration (an over-limit call's is the journal's stand-in, tag 27).
    package var declaration: CallDeclaration {
        if case .oversized = self { return .oversized }
        return name.declaration
    }

    /// The argument values, in the order of ``declaration``'s arguments.
    package var arguments: [ArgumentValue] {
        switch self {
        case .control(.initialize(let project)), .control(.switchProject(let project)): [.project(project)]
        case .setEmail(let text), .setUserId(let text): [.text(text)]
        case .updateEmail(let text), .registerToken(let text), .handleUniversalLink(let text): [.text(text)]
        case .updateUser(let dataFields, let merge): [.dataFields(dataFields), .flag(merge)]
        case .updateCart(let items): [.items(items)]
        case .trackPurchase(let total, let items, let dataFields): [.amount(total), .items(items), .dataFields(dataFields)]
        case .track(let event, let dataFields): [.text(event), .dataFields(dataFields)]
        case .disableDevice, .logoutUser, .embeddedFetch, .control(.flush), .control(.eraseLocalData): []
        case .control(.setConsent(let granted)): [.flag(granted)]
        case .trackPushOpen(let open): [.pushOpen(open)]
        case .handlePush(let payload): [.dataFields(payload)]
        case .inAppFetch(let count): [.count(count)]
        case .inAppOpen(let id), .inAppDelivery(let id), .inAppConsume(let id), .embeddedReceived(let id): [.text(id)]
        case .inAppClick(let id, let url): [.text(id), .text(url)]
        case .inAppClose(let id, let url): [.text(id), .text(url)]
        case .embeddedClick(let id, let button, let url): [.text(id), .text(button), .text(url)]
        case .setAttribution(let info): [.attribution(info)]
        case .oversized(let name, let reason): [.callName(name), .text(reason)]
        }
    }

    /// The call `declaration` declares, with `arguments` in its order and shapes; nil when they
    /// do not fit it (a value of another shape, a required one absent).
    package init?(_ declaration: CallDeclaration, arguments values: [ArgumentValue]) {
        guard values.count == declaration.arguments.count else { return nil }
        func text(_ index: Int) -> String?? {
            if case .text(let value) = values[index] { value } else { nil }
        }
        func data(_ index: Int) -> [String: DataValue]?? {
            if case .dataFields(let value) = values[index] { value } else { nil }
        }
        func items(_ index: Int) -> [CommerceItem]? {
            if case .items(let value) = values[index] { value } else { nil }
        }
        if declaration === CallDeclaration.oversized {
            guard case .callName(let name) = values[0], case .text(let reason?) = values[1] else { return nil }
            self = .oversized(name, reason: reason)
            return
        }
        switch declaration.name {
        case .initialize, .switchProject:
            guard case .project(let project) = values[0] else { return nil }
            self = declaration.name == .initialize ? .initialize(project) : .switchProject(project)
        case .setEmail: guard let email = text(0) else { return nil }; self = .setEmail(email)
        case .setUserId: guard let userID = text(0) else { return nil }; self = .setUserId(userID)
        case .updateEmail: guard let email = text(0) ?? nil else { return nil }; self = .updateEmail(email)
        case .updateUser:
            guard let fields = data(0) ?? nil, case .flag(let merge) = values[1] else { return nil }
            self = .updateUser(dataFields: fields, mergeNestedObjects: merge)
        case .updateCart: guard let items = items(0) else { return nil }; self = .updateCart(items: items)
        case .trackPurchase:
            guard case .amount(let total) = values[0], let items = items(1), let fields = data(2) else { return nil }
            self = .trackPurchase(total: total, items: items, dataFields: fields)
        case .track:
            guard let event = text(0) ?? nil, let fields = data(1) else { return nil }
            self = .track(event: event, dataFields: fields)
        case .registerToken: guard let token = text(0) ?? nil else { return nil }; self = .registerToken(token)
        case .disableDevice: self = .disableDevice
        case .logoutUser: self = .logoutUser
        case .trackPushOpen: guard case .pushOpen(let open) = values[0] else { return nil }; self = .trackPushOpen(open)
        case .handlePush: guard let payload = data(0) ?? nil else { return nil }; self = .handlePush(payload: payload)
        case .inAppFetch: guard case .count(let count) = values[0] else { return nil }; self = .inAppFetch(count: count)
        case .inAppOpen: guard let id = text(0) ?? nil else { return nil }; self = .inAppOpen(messageID: id)
        case .inAppClick:
            guard let id = text(0) ?? nil, let url = text(1) ?? nil else { return nil }
            self = .inAppClick(messageID: id, url: url)
        case .inAppClose:
            guard let id = text(0) ?? nil, let url = text(1) else { return nil }
            self = .inAppClose(messageID: id, url: url)
        case .inAppDelivery: guard let id = text(0) ?? nil else { return nil }; self = .inAppDelivery(messageID: id)
        case .inAppConsume: guard let id = text(0) ?? nil else { return nil }; self = .inAppConsume(messageID: id)
        case .embeddedFetch: self = .embeddedFetch
        case .embeddedReceived: guard let id = text(0) ?? nil else { return nil }; self = .embeddedReceived(messageID: id)
        case .embeddedClick:
            guard let id = text(0) ?? nil, let button = text(1), let url = text(2) else { return nil }
            self = .embeddedClick(messageID: id, buttonID: button, url: url)
        case .setAttribution: guard case .attribution(let info) = values[0] else { return nil }; self = .setAttribution(info)
        case .flush: self = .flush
        case .handleUniversalLink: guard let url = text(0) ?? nil else { return nil }; self = .handleUniversalLink(url: url)
        case .setConsent: guard case .flag(let granted) = values[0] else { return nil }; self = .setConsent(granted: granted)
        case .eraseLocalData: self = .eraseLocalData
        }
    }

    /// The same call with each argument replaced by `transform(declaration, value)` (values
    /// keep their shapes: redaction, samples).
    package func mapArguments(_ transform: (ArgumentDeclaration, ArgumentValue) -> ArgumentValue) -> PublicCall {
        let declaration = self.declaration
        var values = arguments
        for index in values.indices { values[index] = transform(declaration.arguments[index], values[index]) }
        guard let mapped = PublicCall(declaration, arguments: values) else {
            preconditionFailure("\(declaration.name): a transform changed an argument's shape")
        }
        return mapped
    }
}

extension PublicCall {
    /// Whether the call is journaled as over a limit (``oversized(_:reason:)``).
    var isOversized: Bool {
        if case .oversized = self { true } else { false }
    }
}
