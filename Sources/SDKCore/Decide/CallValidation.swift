/// Checks a call's arguments before anything else happens: the first problem, in words that name
/// the argument, or nil when the call is usable. Every string, count, size and nesting is held to
/// its limit in ``CallLimits``.
///
/// Sizes come first, over every argument: only when no argument is over its limit is any other
/// problem looked for (an empty or control character, a missing `@`, a number that is not finite,
/// a value out of its range). So an over-limit value is never journaled, whatever else the call
/// has wrong: a call with an over-limit problem is journaled as ``PublicCall/oversized(_:reason:)``,
/// and a call with only other problems is within every limit, so its record is too.
enum CallValidation {
    /// The first problem of `call`'s arguments. For a `track` call whose body was written
    /// already, its data fields are judged by what writing them found (`measuredDataFields`:
    /// their JSON's length and fidelity, nested at most ``DataValue/maxDepth`` deep), with the
    /// same outcome and words as walking them here.
    static func problem(in call: PublicCall, measuredDataFields: (bytes: Int, fidelity: JSONFidelity)? = nil) -> CallProblem? {
        if case .track(let event, let dataFields?) = call, let measured = measuredDataFields, measured.fidelity != .unsendable {
            // Sendable: finite numbers, nested within the limit, and its JSON's length is known.
            return textSize(event, "eventName", limit: CallLimits.identifierBytes)
                ?? dataSize(dataFields, "dataFields", jsonBytes: measured.bytes)
                ?? textForm(event, "eventName")
        }
        if case .oversized(_, let reason) = call { return CallProblem(reason: reason, isOverLimit: true) }
        let declaration = call.declaration
        let values = call.arguments
        var items: [CommerceItem] = []
        var dataFields: [String: DataValue]?
        for (argument, value) in zip(declaration.arguments, values) {
            if let problem = sizeProblem(in: value, of: argument) { return problem }
            if case .items(let found) = value { items = found }
            if case .dataFields(let found) = value { dataFields = found }
        }
        if declaration.limitsTotalBytes, let problem = total(items: items, dataFields: dataFields, declaration.name.rawValue) {
            return problem
        }
        for (argument, value) in zip(declaration.arguments, values) {
            if let problem = formProblem(in: value, of: argument) { return problem }
        }
        return nil
    }

    // MARK: - Sizes

    /// The size problem of one argument, by its declared kind, named as the public API names it:
    /// a text's bytes, a data object's fields, nesting, JSON bytes, keys and strings, a cart's
    /// items.
    private static func sizeProblem(in value: ArgumentValue, of argument: ArgumentDeclaration) -> CallProblem? {
        let name = argument.name
        switch argument.kind {
        case .email, .userID, .pushToken, .identifier, .url, .link:
            return value.text.flatMap { textSize($0, name, limit: argument.kind.byteLimit ?? CallLimits.urlBytes) }
        case .dataFields:
            guard case .dataFields(let members?) = value else { return nil }
            return dataSize(members, name)
        case .items:
            guard case .items(let items) = value else { return nil }
            return itemsSize(items)
        case .project:
            guard case .project(let project) = value else { return nil }
            return textSize(project.endpoint, "endpoint", limit: CallLimits.urlBytes)
                ?? textSize(project.region, "region", limit: CallLimits.urlBytes)
                ?? project.label.flatMap { textSize($0, "label", limit: CallLimits.projectLabelBytes) }
        case .pushOpen:
            guard case .pushOpen(let open) = value else { return nil }
            return textSize(open.messageID, "messageId", limit: CallLimits.identifierBytes) ?? open.dataFields.flatMap { dataSize($0, "dataFields") }
        case .attribution:
            guard case .attribution(let info?) = value else { return nil }
            return textSize(info.messageID, "messageId", limit: CallLimits.identifierBytes)
        case .messageCount, .amount, .flag, .reason, .callName:
            // A number or a flag has no size; a reason and a call's name are the journal's own,
            // never an app's.
            return nil
        }
    }

    /// A text over `limit` UTF-8 bytes.
    private static func textSize(_ value: String, _ name: String, limit: Int) -> CallProblem? {
        let count = value.utf8.count
        return count > limit ? .overLimit(name, count, "bytes", limit: limit) : nil
    }

    /// A data-fields object over a limit: more than ``CallLimits/dataFieldsCount`` fields at its
    /// top, nested deeper than ``CallLimits/dataDepth``, more than ``CallLimits/dataFieldsBytes``
    /// of JSON, or a key or string over its limit at any depth. `jsonBytes`: its JSON's length,
    /// when known already (the object is then known to nest within the limit).
    private static func dataSize(_ object: [String: DataValue], _ name: String, jsonBytes known: Int? = nil) -> CallProblem? {
        if object.count > CallLimits.dataFieldsCount { return .overLimit(name, object.count, "fields", limit: CallLimits.dataFieldsCount) }
        if known == nil && DataValue.object(object).nestsDeeper(than: CallLimits.dataDepth) {
            return CallProblem(reason: "\(name): nested more than \(CallLimits.dataDepth) levels deep, at most \(CallLimits.dataDepth)",
                               isOverLimit: true)
        }
        let bytes = known ?? jsonBytes(of: object)
        if bytes > CallLimits.dataFieldsBytes { return .overLimit(name, bytes, "bytes of JSON", limit: CallLimits.dataFieldsBytes) }
        // No key or string is longer than the whole JSON: a short object needs no walk.
        guard bytes > min(CallLimits.dataKeyBytes, CallLimits.dataStringBytes) else { return nil }
        return longText(in: .object(object), path: name)
    }

    /// The length of `object`'s JSON, which nests within the limit: bounded from above in one
    /// walk (nearly every object, far below the limit), counted exactly only when that does not
    /// settle it.
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

    /// A cart's items over a limit: their count, or an item's id, name, sku or data fields.
    private static func itemsSize(_ items: [CommerceItem]) -> CallProblem? {
        if items.count > CallLimits.items { return .overLimit("items", items.count, "items", limit: CallLimits.items) }
        for (index, item) in items.enumerated() {
            if let problem = textSize(item.id, "items[\(index)].id", limit: CallLimits.identifierBytes) { return problem }
            if let problem = textSize(item.name, "items[\(index)].name", limit: CallLimits.itemNameBytes) { return problem }
            if let sku = item.sku, let problem = textSize(sku, "items[\(index)].sku", limit: CallLimits.identifierBytes) { return problem }
            if let fields = item.dataFields, let problem = dataSize(fields, "items[\(index)].dataFields") { return problem }
        }
        return nil
    }

    /// Everything a commerce call carries, within ``CallLimits/callBytes`` (each part is within
    /// its own limit already: only many of them add up past it).
    private static func total(items: [CommerceItem], dataFields: [String: DataValue]?, _ name: String) -> CallProblem? {
        let bytes = DataValue.array(items.map(\.dataValue)).jsonByteCount + (dataFields.map { DataValue.object($0).jsonByteCount } ?? 0)
        return bytes > CallLimits.callBytes ? .overLimit(name, bytes, "bytes of JSON", limit: CallLimits.callBytes) : nil
    }

    // MARK: - Everything else (every argument within its limits)

    /// The problem of one argument other than its size, by its declared kind, named as the public
    /// API names it.
    private static func formProblem(in value: ArgumentValue, of argument: ArgumentDeclaration) -> CallProblem? {
        let name = argument.name
        switch argument.kind {
        case .email:
            guard let email = value.text else { return nil }
            return textForm(email, name) ?? (email.contains("@") ? nil : .invalid("\(name) is not an email address (no @)"))
        case .userID, .pushToken, .identifier, .url:
            return value.text.flatMap { textForm($0, name) }
        case .link:
            guard let url = value.text else { return nil }
            if let problem = textForm(url, name) { return problem }
            return url.hasPrefix("https://") || url.hasPrefix("http://") ? nil : .invalid("\(name) is not an http(s) URL")
        case .dataFields:
            guard case .dataFields(let members?) = value else { return nil }
            return dataForm(members, name)
        case .items:
            guard case .items(let items) = value else { return nil }
            return itemsForm(items)
        case .messageCount:
            guard case .count(let count) = value else { return nil }
            return (1...CallLimits.messagesPerFetch).contains(count) ? nil : .invalid("\(name) \(count) is outside 1...\(CallLimits.messagesPerFetch)")
        case .amount:
            guard case .amount(let total) = value else { return nil }
            return total.isFinite && total >= 0 ? nil : .invalid("\(name) \(total) is not a finite, non-negative amount")
        case .project:
            guard case .project(let project) = value else { return nil }
            // The label is the app's name for people: any text within its limit will do.
            return textForm(project.endpoint, "endpoint") ?? textForm(project.region, "region")
                ?? project.retry.problem.map(CallProblem.invalid)
        case .pushOpen:
            guard case .pushOpen(let open) = value else { return nil }
            return textForm(open.messageID, "messageId") ?? open.dataFields.flatMap { dataForm($0, "dataFields") }
        case .attribution:
            guard case .attribution(let info?) = value else { return nil }
            return textForm(info.messageID, "messageId")
        case .flag, .reason, .callName:
            // Any value is usable: a flag has no limit; a reason and a call's name are the
            // journal's own, never an app's.
            return nil
        }
    }

    /// A string argument: not empty (unless `allowsEmpty`), no control character.
    private static func textForm(_ value: String, _ name: String, allowsEmpty: Bool = false) -> CallProblem? {
        if value.utf8.isEmpty { return allowsEmpty ? nil : .invalid("\(name) is empty") }
        // A control character is one byte in UTF-8, and no other character's bytes are below
        // 0x80: the bytes tell as the scalars would, without decoding them.
        let hasControl = value.utf8.withContiguousStorageIfAvailable(containsControl) ?? value.utf8.contains(where: isControl)
        return hasControl ? .invalid("\(name) contains a control character") : nil
    }

    /// Whether `byte` is a C0 control character or DEL.
    private static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    /// Whether any byte of `bytes` is a control character (``isControl(_:)``), eight at a time:
    /// a text argument is checked on every call.
    static func containsControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        while bytes.count - index >= 8 {
            if wordHasControl(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { return true }
            index += 8
        }
        while index < bytes.count {
            if isControl(bytes[index]) { return true }
            index += 1
        }
        return false
    }

    /// Whether any of the eight bytes of `word` is below 0x20 or is 0x7F. Exact: a byte's
    /// flag is set only by a borrow from a byte that is itself flagged, so the answer is never
    /// true when no byte is one.
    @inline(__always)
    private static func wordHasControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word
        let dels = word ^ (ones &* 0x7F)
        let del = (dels &- ones) & ~dels
        return (below | del) & highBits != 0
    }

    /// A data-fields object within its limits that cannot be sent as JSON: a number that is not
    /// finite (named by its path, members in key order).
    private static func dataForm(_ object: [String: DataValue], _ name: String) -> CallProblem? {
        DataValue.object(object).problem(path: name).map(CallProblem.invalid)
    }

    private static func itemsForm(_ items: [CommerceItem]) -> CallProblem? {
        for (index, item) in items.enumerated() {
            if let problem = textForm(item.id, "items[\(index)].id") { return problem }
            if let problem = textForm(item.name, "items[\(index)].name", allowsEmpty: true) { return problem }
            if let sku = item.sku, let problem = textForm(sku, "items[\(index)].sku") { return problem }
            if !item.price.isFinite { return .invalid("items[\(index)].price \(item.price) is not a finite number") }
            if item.quantity < 0 { return .invalid("items[\(index)].quantity \(item.quantity) is negative") }
            if let fields = item.dataFields, let problem = dataForm(fields, "items[\(index)].dataFields") { return problem }
        }
        return nil
    }
}
