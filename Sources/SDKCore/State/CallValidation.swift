/// Checks a call's arguments before anything else happens: the first problem, in words that name
/// the argument, or nil when the call is usable. Every string, count and size is held to its
/// limit in ``CallLimits``.
enum CallValidation {
    /// The first problem of `call`'s arguments. For a `track` call whose body was written
    /// already, its data fields are judged by what writing them found (`measuredDataFields`:
    /// their JSON's length and fidelity, nested at most ``DataValue/maxDepth`` deep), with the
    /// same outcome and words as walking them here.
    static func problem(in call: PublicCall, measuredDataFields: (bytes: Int, fidelity: JSONFidelity)? = nil) -> CallProblem? {
        if case .track(let event, let dataFields?) = call, let measured = measuredDataFields {
            if let problem = text(event, "eventName", limit: CallLimits.identifierBytes) { return problem }
            if measured.fidelity == .unsendable {
                return .invalid(DataValue.object(dataFields).problem(path: "dataFields") ?? "dataFields cannot be sent as JSON")
            }
            return data(dataFields, "dataFields", jsonBytes: measured.bytes)
        }
        if case .oversized(_, let reason) = call { return CallProblem(reason: reason, isOverLimit: true) }
        let declaration = call.declaration
        let values = call.arguments
        var items: [CommerceItem] = []
        var dataFields: [String: DataValue]?
        for (argument, value) in zip(declaration.arguments, values) {
            if let problem = problem(in: value, of: argument) { return problem }
            if case .items(let found) = value { items = found }
            if case .dataFields(let found) = value { dataFields = found }
        }
        return declaration.limitsTotalBytes ? total(items: items, dataFields: dataFields, declaration.name.rawValue) : nil
    }

    /// The problem of one argument, by its declared kind, named as the public API names it.
    private static func problem(in value: ArgumentValue, of argument: ArgumentDeclaration) -> CallProblem? {
        let name = argument.name
        switch argument.kind {
        case .email:
            return value.text.flatMap { email($0, name) }
        case .userID, .pushToken, .identifier, .url:
            return value.text.flatMap { text($0, name, limit: argument.kind.byteLimit ?? CallLimits.urlBytes) }
        case .link:
            guard let url = value.text else { return nil }
            if let problem = text(url, name, limit: CallLimits.urlBytes) { return problem }
            return url.hasPrefix("https://") || url.hasPrefix("http://") ? nil : .invalid("\(name) is not an http(s) URL")
        case .dataFields:
            guard case .dataFields(let members?) = value else { return nil }
            return data(members, name)
        case .items:
            guard case .items(let items) = value else { return nil }
            return commerce(items)
        case .messageCount:
            guard case .count(let count) = value else { return nil }
            return (1...CallLimits.messagesPerFetch).contains(count) ? nil : .invalid("\(name) \(count) is outside 1...\(CallLimits.messagesPerFetch)")
        case .amount:
            guard case .amount(let total) = value else { return nil }
            return total.isFinite && total >= 0 ? nil : .invalid("\(name) \(total) is not a finite, non-negative amount")
        case .project:
            guard case .project(let project) = value else { return nil }
            return text(project.endpoint, "endpoint", limit: CallLimits.urlBytes) ?? text(project.region, "region", limit: CallLimits.urlBytes)
        case .pushOpen:
            guard case .pushOpen(let open) = value else { return nil }
            return text(open.messageID, "messageId", limit: CallLimits.identifierBytes) ?? open.dataFields.flatMap { data($0, "dataFields") }
        case .attribution:
            guard case .attribution(let info?) = value else { return nil }
            return text(info.messageID, "messageId", limit: CallLimits.identifierBytes)
        case .flag, .reason, .callName:
            // Any value is usable: a flag has no limit; a reason and a call's name are the
            // journal's own, never an app's.
            return nil
        }
    }

    /// A string argument: not empty, at most `limit` UTF-8 bytes, no control character.
    private static func text(_ value: String, _ name: String, limit: Int, allowsEmpty: Bool = false) -> CallProblem? {
        let count = value.utf8.count
        if count == 0 { return allowsEmpty ? nil : .invalid("\(name) is empty") }
        if count > limit { return .overLimit(name, count, "bytes", limit: limit) }
        // A control character is one byte in UTF-8, and no other character's bytes are below
        // 0x80: the bytes tell as the scalars would, without decoding them.
        let isControl = { (byte: UInt8) in byte < 0x20 || byte == 0x7F }
        let hasControl = value.utf8.withContiguousStorageIfAvailable { $0.contains(where: isControl) } ?? value.utf8.contains(where: isControl)
        if hasControl { return .invalid("\(name) contains a control character") }
        return nil
    }

    private static func email(_ value: String, _ name: String) -> CallProblem? {
        text(value, name, limit: CallLimits.emailBytes) ?? (value.contains("@") ? nil : .invalid("\(name) is not an email address (no @)"))
    }

    /// A data-fields object: sendable as JSON (finite numbers, at most ``DataValue/maxDepth``
    /// deep), at most ``CallLimits/dataFieldsCount`` fields at its top, ``CallLimits/dataFieldsBytes``
    /// of JSON, and keys and strings within their limits at any depth. `jsonBytes`: its JSON's
    /// length, when known already.
    private static func data(_ object: [String: DataValue], _ name: String, jsonBytes known: Int? = nil) -> CallProblem? {
        if known == nil, let problem = DataValue.object(object).problem(path: name) { return .invalid(problem) }
        if object.count > CallLimits.dataFieldsCount { return .overLimit(name, object.count, "fields", limit: CallLimits.dataFieldsCount) }
        let bytes = known ?? jsonBytes(of: object)
        if bytes > CallLimits.dataFieldsBytes { return .overLimit(name, bytes, "bytes of JSON", limit: CallLimits.dataFieldsBytes) }
        // No key or string is longer than the whole JSON: a short object needs no walk.
        guard bytes > min(CallLimits.dataKeyBytes, CallLimits.dataStringBytes) else { return nil }
        return longText(in: .object(object), path: name)
    }

    /// The length of `object`'s JSON: bounded from above in one walk that finds no problem
    /// (nearly every object, far below the limit), counted exactly only when that does not settle it.
    private static func jsonBytes(of object: [String: DataValue]) -> Int {
        if let bound = jsonLengthBound(.object(object), depth: DataValue.maxDepth), bound <= min(CallLimits.dataKeyBytes, CallLimits.dataStringBytes) {
            return bound
        }
        return DataValue.object(object).jsonByteCount
    }

    /// The first key or string in `value` (at `path`) over its limit, members in key order.
    private static func longText(in value: DataValue, path: String) -> CallProblem? {
        switch value {
        case .string(let text):
            let count = text.utf8.count
            return count > CallLimits.dataStringBytes ? .overLimit(path, count, "bytes", limit: CallLimits.dataStringBytes) : nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let problem = longText(in: element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        case .object(let members):
            for member in members.sorted(by: { String.utf8Precedes($0.key, $1.key) }) {
                let count = member.key.utf8.count
                if count > CallLimits.dataKeyBytes { return .overLimit("\(path) key", count, "bytes", limit: CallLimits.dataKeyBytes) }
                if let problem = longText(in: member.value, path: "\(path).\(member.key)") { return problem }
            }
            return nil
        case .integer, .number, .bool, .null:
            return nil
        }
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

    private static func commerce(_ items: [CommerceItem]) -> CallProblem? {
        if items.count > CallLimits.items { return .overLimit("items", items.count, "items", limit: CallLimits.items) }
        for (index, item) in items.enumerated() {
            if let problem = text(item.id, "items[\(index)].id", limit: CallLimits.identifierBytes) { return problem }
            if let problem = text(item.name, "items[\(index)].name", limit: CallLimits.itemNameBytes, allowsEmpty: true) { return problem }
            if let sku = item.sku, let problem = text(sku, "items[\(index)].sku", limit: CallLimits.identifierBytes) { return problem }
            if !item.price.isFinite { return .invalid("items[\(index)].price \(item.price) is not a finite number") }
            if item.quantity < 0 { return .invalid("items[\(index)].quantity \(item.quantity) is negative") }
            if let fields = item.dataFields, let problem = data(fields, "items[\(index)].dataFields") { return problem }
        }
        return nil
    }

    /// Everything a commerce call carries, within ``CallLimits/callBytes`` (each part is within
    /// its own limit already: only many of them add up past it).
    private static func total(items: [CommerceItem], dataFields: [String: DataValue]?, _ name: String) -> CallProblem? {
        let bytes = DataValue.array(items.map(\.dataValue)).jsonByteCount + (dataFields.map { DataValue.object($0).jsonByteCount } ?? 0)
        return bytes > CallLimits.callBytes ? .overLimit(name, bytes, "bytes of JSON", limit: CallLimits.callBytes) : nil
    }
}
