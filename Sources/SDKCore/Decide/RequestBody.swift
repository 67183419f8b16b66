import Journal

/// The HTTP request a public call becomes: pure, built from the call, the identity it is made
/// under and its time. Bodies follow the engagement platform's REST API; JSON keys are sorted.
/// This is the body the journal records; on the wire each JSON object also opens with its
/// call's `callId` (``WireCallID``, added by ``DeliveryTask/writeWireBody(into:stream:)``,
/// docs/RECONCILE.md).
struct RequestBody: Equatable {
    var path: String
    var method: DeliveryTask.Method
    var query: String?
    var body: [UInt8]

    /// The user as request bodies name them: by email, else by user id.
    struct Identity: Equatable {
        var email: String?
        var userID: String?

        var isKnown: Bool { email != nil || userID != nil }

        /// `email` or `userId`, for bodies that name the user at the top level.
        var fields: JSONFields {
            var fields = JSONFields()
            if let email { fields["email"] = .string(email) } else if let userID { fields["userId"] = .string(userID) }
            return fields
        }
    }

    /// The request for `call`, or nil when the call is handled without one: as its declaration
    /// states it (``CallRequest``). Never traps: a declaration that could not be built (a POST of
    /// an argument with no JSON of its own, a shape of another call's) makes none, which
    /// `CallDeclarationTests` holds no declaration to.
    static func make(for call: PublicCall, identity: Identity, pushToken: String?, time: JournalTime, sdkVersion: String) -> RequestBody? {
        switch call.declaration.request {
        case .none: return nil
        case .post(let path): return declaredFields(of: call).map { post(path, identity.fields.adding($0)) }
        case .built(let shape): return built(shape, for: call, identity: identity, pushToken: pushToken, time: time, sdkVersion: sdkVersion)
        }
    }

    /// Each argument of `call` under its name in the public API, absent optional ones left out;
    /// nil when an argument has no JSON of its own (a call with one declares a built request).
    private static func declaredFields(of call: PublicCall) -> JSONFields? {
        var fields = JSONFields()
        for (argument, value) in zip(call.declaration.arguments, call.arguments) {
            switch value {
            case .text(let text): if let text { fields[argument.name] = .string(text) }
            case .count(let count): fields[argument.name] = .integer(Int64(count))
            case .amount(let amount): fields[argument.name] = .number(amount)
            case .flag(let flag): fields[argument.name] = .bool(flag)
            case .dataFields(let members): if let members { fields[argument.name] = .object(members) }
            case .items(let items): fields[argument.name] = .array(items.map(\.dataValue))
            case .project, .pushOpen, .attribution, .callName: return nil
            }
        }
        return fields
    }

    /// The request of `shape` for `call`, the call that declares it (``BuiltRequest``); nil when
    /// the call makes none now (a disable without a push token), or were a declaration to name
    /// another call's shape (`CallDeclarationTests` holds every declaration to building one).
    private static func built(_ shape: BuiltRequest, for call: PublicCall, identity: Identity, pushToken: String?, time: JournalTime,
                              sdkVersion: String) -> RequestBody? {
        let createdAt = createdAt(time)
        switch shape {
        case .updateEmail:
            guard case .updateEmail(let newEmail) = call else { return nil }
            var object: JSONFields = ["newEmail": .string(newEmail)]
            if let email = identity.email { object["currentEmail"] = .string(email) }
            else if let userID = identity.userID { object["currentUserId"] = .string(userID) }
            return post("users/updateEmail", object)
        case .updateCart:
            guard case .updateCart(let items) = call else { return nil }
            return post("commerce/updateCart", ["user": identity.fields.dataValue, "items": .array(items.map(\.dataValue))])
        case .trackPurchase:
            guard case .trackPurchase(let total, let items, let dataFields) = call else { return nil }
            var object: JSONFields = ["user": identity.fields.dataValue, "items": .array(items.map(\.dataValue)),
                                      "total": .number(total), "createdAt": createdAt]
            if let dataFields { object["dataFields"] = .object(dataFields) }
            return post("commerce/trackPurchase", object)
        case .track:
            guard case .track(let event, let dataFields) = call else { return nil }
            return RequestBody(path: DeliveryTask.trackPath, method: .post, query: nil,
                               body: trackBody(event, dataFields: dataFields, identity: identity, createdAt: createdAt))
        case .registerToken:
            guard case .registerToken(let token) = call else { return nil }
            return post("users/registerDeviceToken", identity.fields.adding([
                "device": .object(["token": .string(token), "platform": "APNS", "applicationName": "engagement-sdk"]),
            ]))
        case .disableDevice:
            guard case .disableDevice = call, let pushToken else { return nil }
            return post(DeliveryTask.disableDevicePath, identity.fields.adding(["token": .string(pushToken)]))
        case .trackPushOpen:
            guard case .trackPushOpen(let open) = call else { return nil }
            var object = identity.fields.adding(["messageId": .string(open.messageID), "appAlreadyRunning": .bool(open.appAlreadyRunning)])
            if let campaign = open.campaignID { object["campaignId"] = .integer(campaign) }
            if let template = open.templateID { object["templateId"] = .integer(template) }
            if let dataFields = open.dataFields { object["dataFields"] = .object(dataFields) }
            return post("events/trackPushOpen", object)
        case .inAppMessages:
            guard case .inAppFetch(let count) = call else { return nil }
            return get("inApp/getMessages", identity, ["count": String(count), "platform": "iOS", "SDKVersion": sdkVersion])
        case .embeddedMessages:
            guard case .embeddedFetch = call else { return nil }
            return get("embedded-messaging/messages", identity, ["platform": "iOS", "sdkVersion": sdkVersion])
        }
    }

    /// The body bytes an event held for an unknown user reserves in the delivery queue: its
    /// request's body for no user, made at the latest time there is, plus the room the longest
    /// identity takes once the user is known (a held event's body is only made then).
    static func reservedBytes(forHeld event: PublicCall) -> Int {
        let body = make(for: event, identity: Identity(), pushToken: nil, time: JournalTime(microsecondsSince1970: .max), sdkVersion: "")?.body
        return (body?.count ?? 0) + identityReserve
    }

    /// The most bytes naming the user adds to a body: `,"email":` or `,"userId":` or
    /// `"user":{...}`, and the identity's JSON string, every byte escaped at worst to six (`\u00XX`).
    static let identityReserve = 32 + 6 * CallLimits.longestIdentityBytes

    /// A body's `createdAt`: the call's time in whole seconds since 1970.
    static func createdAt(_ time: JournalTime) -> DataValue {
        .integer(time.microsecondsSince1970 / 1_000_000)
    }

    /// An `events/track` body, written straight into bytes (the busiest request: every burst is
    /// made of these): the same bytes as the sorted object `createdAt`, `dataFields`, `email`,
    /// `eventName`, `userId` (the user by email, else by id).
    static func trackBody(_ event: String, dataFields: [String: DataValue]?, identity: Identity, createdAt: DataValue) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = writeTrackBody(event, dataFields: dataFields, identity: identity, createdAt: createdAt, into: &bytes)
        return bytes
    }

    /// ``trackBody(_:dataFields:identity:createdAt:)`` written into `bytes` (emptied first, its
    /// storage kept), saying where the data fields lie in it.
    static func writeTrackBody(_ event: String, dataFields: [String: DataValue]?, identity: Identity, createdAt: DataValue,
                               into bytes: inout [UInt8]) -> TrackBody {
        ScratchBytes.withScratch { output in
            output.append(#"{"createdAt":"# as StaticString)
            createdAt.writeJSON(to: &output)
            var fields: Range<Int>?
            var fidelity = JSONFidelity.exact
            if let dataFields {
                output.append(#","dataFields":"# as StaticString)
                let start = output.count
                DataValue.object(dataFields).writeJSON(to: &output, depth: DataValue.maxDepth, fidelity: &fidelity)
                fields = start..<output.count
            }
            if let email = identity.email {
                output.append(#","email":"# as StaticString)
                JSONValue.writeString(email, to: &output)
            }
            output.append(#","eventName":"# as StaticString)
            JSONValue.writeString(event, to: &output)
            if identity.email == nil, let userID = identity.userID {
                output.append(#","userId":"# as StaticString)
                JSONValue.writeString(userID, to: &output)
            }
            output.append(UInt8(ascii: "}"))
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: output.written)
            return TrackBody(dataFields: fields, fidelity: fidelity)
        }
    }

    private static func post(_ path: String, _ object: JSONFields) -> RequestBody {
        RequestBody(path: path, method: .post, query: nil, body: object.jsonBytes())
    }

    private static func get(_ path: String, _ identity: Identity, _ parameters: [String: String]) -> RequestBody {
        var all = parameters
        if let email = identity.email { all["email"] = email } else if let userID = identity.userID { all["userId"] = userID }
        let query = all.keys.sorted().map { "\($0)=\(percentEncoded(all[$0]!))" }.joined(separator: "&")
        return RequestBody(path: path, method: .get, query: query, body: [])
    }

    /// RFC 3986 unreserved characters stay; every other byte becomes %XX.
    static func percentEncoded(_ value: String) -> String {
        var output = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}
