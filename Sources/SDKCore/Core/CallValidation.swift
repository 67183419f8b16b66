/// Checks a call's arguments before anything else happens: the first problem, in words that name
/// the argument, or nil when the call is usable.
enum CallValidation {
    /// The largest encoded data-fields object a call may carry.
    static let maxDataBytes = 64 << 10
    /// The longest identifier (email, user id, token, message id, event name).
    static let maxIdentifierLength = 1_024

    /// The first problem of `call`'s arguments. For a `track` call whose body was written
    /// already, its data fields are judged by what writing them found (`measuredDataFields`:
    /// their JSON's length and fidelity, nested at most ``DataValue/maxDepth`` deep), with the
    /// same outcome and words as walking them here.
    static func problem(in call: PublicCall, measuredDataFields: (bytes: Int, fidelity: JSONFidelity)? = nil) -> String? {
        if case .track(let event, let dataFields?) = call, let measured = measuredDataFields {
            if let problem = identifier(event, "eventName") { return problem }
            if measured.fidelity == .unsendable { return DataValue.object(dataFields).problem(path: "dataFields") }
            return measured.bytes > maxDataBytes ? tooLarge("dataFields", bytes: measured.bytes) : nil
        }
        switch call {
        case .initialize, .switchProject, .disableDevice, .logoutUser, .embeddedFetch, .flush:
            return nil
        case .setEmail(let email):
            guard let email else { return nil }
            return identifier(email, "email") ?? (email.contains("@") ? nil : "email is not an email address (no @)")
        case .setUserId(let userID):
            return userID.flatMap { identifier($0, "userId") }
        case .updateEmail(let email):
            return identifier(email, "newEmail") ?? (email.contains("@") ? nil : "newEmail is not an email address (no @)")
        case .updateUser(let dataFields, _):
            return data(dataFields, "dataFields")
        case .updateCart(let items):
            return commerce(items)
        case .trackPurchase(let total, let items, let dataFields):
            if !total.isFinite || total < 0 { return "total \(total) is not a finite, non-negative amount" }
            return commerce(items) ?? dataFields.flatMap { data($0, "dataFields") }
        case .track(let event, let dataFields):
            return identifier(event, "eventName") ?? dataFields.flatMap { data($0, "dataFields") }
        case .registerToken(let token):
            return identifier(token, "token")
        case .trackPushOpen(let open):
            return identifier(open.messageID, "messageId") ?? open.dataFields.flatMap { data($0, "dataFields") }
        case .handlePush(let payload):
            return data(payload, "payload")
        case .inAppFetch(let count):
            return (1...100).contains(count) ? nil : "count \(count) is outside 1...100"
        case .inAppOpen(let id), .inAppDelivery(let id), .inAppConsume(let id), .embeddedReceived(let id):
            return identifier(id, "messageId")
        case .inAppClick(let id, let url):
            return identifier(id, "messageId") ?? identifier(url, "clickedUrl")
        case .inAppClose(let id, let url):
            return identifier(id, "messageId") ?? url.flatMap { identifier($0, "clickedUrl") }
        case .embeddedClick(let id, let button, let url):
            return identifier(id, "messageId") ?? button.flatMap { identifier($0, "buttonIdentifier") } ?? url.flatMap { identifier($0, "targetUrl") }
        case .setAttribution(let info):
            return info.flatMap { identifier($0.messageID, "messageId") }
        case .handleUniversalLink(let url):
            if let problem = identifier(url, "url") { return problem }
            return url.hasPrefix("https://") || url.hasPrefix("http://") ? nil : "url is not an http(s) URL"

        }
    }

    private static func identifier(_ value: String, _ name: String) -> String? {
        if value.isEmpty { return "\(name) is empty" }
        if value.utf8.count > maxIdentifierLength { return "\(name) is \(value.utf8.count) bytes long (limit \(maxIdentifierLength))" }
        // A control character is one byte in UTF-8, and no other character's bytes are below
        // 0x80: the bytes tell as the scalars would, without decoding them.
        let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
        let hasControl = value.utf8.withContiguousStorageIfAvailable { $0.contains(where: isControl) } ?? value.utf8.contains(where: isControl)
        if hasControl { return "\(name) contains a control character" }
        return nil
    }

    private static func data(_ object: [String: DataValue], _ name: String) -> String? {
        // Nearly every object is fine and far below the limit: one walk finds no problem and
        // bounds its JSON from above, without counting escapes. The exact walks below run only
        // when it does not settle it.
        if let bound = jsonLengthBound(.object(object), depth: DataValue.maxDepth), bound <= maxDataBytes { return nil }
        if let problem = DataValue.object(object).problem(path: name) { return problem }
        let size = DataValue.object(object).jsonByteCount
        return size > maxDataBytes ? tooLarge(name, bytes: size) : nil
    }

    private static func tooLarge(_ name: String, bytes: Int) -> String {
        "\(name) is \(bytes) bytes of JSON (limit \(maxDataBytes))"
    }

    /// An upper bound of `value`'s JSON length (``DataValue/jsonByteCount``), or nil when
    /// `value` has a problem (``DataValue/problem(maxDepth:path:)``) within `depth` levels.
    /// A string byte is escaped to at most 6 bytes (`\u00XX`); a number is written in at most 24.
    private static func jsonLengthBound(_ value: DataValue, depth: Int) -> Int? {
        guard depth > 0 else { return nil }
        switch value {
        case .string(let text): return 2 + 6 * text.utf8.count
        case .integer: return 20
        case .number(let number): return number.isFinite ? 24 : nil
        case .bool, .null: return 5
        case .array(let elements):
            var total = 2 + elements.count
            for element in elements {
                guard let length = jsonLengthBound(element, depth: depth - 1) else { return nil }
                total += length
            }
            return total
        case .object(let members):
            var total = 2 + members.count
            for (key, member) in members {
                guard let length = jsonLengthBound(member, depth: depth - 1) else { return nil }
                total += 3 + 6 * key.utf8.count + length
            }
            return total
        }
    }

    private static func commerce(_ items: [CommerceItem]) -> String? {
        for (index, item) in items.enumerated() {
            if let problem = identifier(item.id, "items[\(index)].id") { return problem }
            if !item.price.isFinite { return "items[\(index)].price \(item.price) is not a finite number" }
            if item.quantity < 0 { return "items[\(index)].quantity \(item.quantity) is negative" }
            if let fields = item.dataFields, let problem = data(fields, "items[\(index)].dataFields") { return problem }
        }
        return nil
    }
}
