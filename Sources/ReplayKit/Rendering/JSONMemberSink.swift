import SDK

/// Where ``FactJSON`` puts the members of a JSON object, one at a time and in order: a tree to
/// assemble further (``JSONMemberTree``) or bytes written as they come (``JSONMemberBytes``).
/// Both give the same JSON for the same calls; FactJSON says once what a fact's JSON is.
///
/// Implementers must keep the members in the order they are added, and must write each value
/// exactly as its ``JSONValue`` would serialize (call ids and projects as ``FactJSON/callID(_:)``
/// and ``FactJSON/project(_:)`` spell them).
protocol JSONMemberSink: ~Copyable {
    /// Adds `key` with `value`.
    mutating func add(_ key: JSONKey, _ value: JSONValue)
    /// Adds `key` with the JSON string `text`.
    mutating func add(_ key: JSONKey, string text: String)
    /// Adds `key` with the JSON string of `text`'s UTF-8 bytes, as `String(decoding:as:)` reads
    /// them (an ill-formed sequence becomes U+FFFD).
    mutating func add(_ key: JSONKey, utf8 text: [UInt8])
    /// Adds `key` with a call id's text.
    mutating func add(_ key: JSONKey, call: CallID)
    /// Adds `key` with a project's fingerprint in hex.
    mutating func add(_ key: JSONKey, project: ProjectFingerprint)
    /// Adds `key` with an object whose members `members` adds to this sink, in order.
    mutating func addObject(_ key: JSONKey, _ members: (inout Self) -> Void)

    // Personal values: FactJSON adds each value a ``Redactor`` replaces (``Redactor/redact(_:)-(Fact)``)
    // through one of these, so that a redacting sink can write what the redacted fact would hold
    // without the fact being redacted first. The defaults write the values as they are.

    /// Adds `key` with an email, user id or push token (`kind` is its token kind), or null.
    mutating func add(_ key: JSONKey, personal text: String?, kind: String)
    /// Adds `key` with a free-text reason (which may echo an argument), or null.
    mutating func add(_ key: JSONKey, freeText text: String?)
    /// Adds `key` with an array of free-text reasons.
    mutating func add(_ key: JSONKey, freeTexts texts: [String])
    /// Adds `key` with data fields as ``FactJSON/write(data:into:)`` writes them, or null.
    mutating func add(_ key: JSONKey, dataFields members: [String: DataValue]?)
    /// Adds `key` with commerce items as ``FactJSON/items(_:)`` holds them.
    mutating func add(_ key: JSONKey, items: [CommerceItem])
    /// Adds `key` with a request body as a JSON string (see ``add(_:utf8:)``).
    mutating func add(_ key: JSONKey, body: [UInt8])
    /// Adds `key` with a request's query string, or null.
    mutating func add(_ key: JSONKey, query: String?)
    /// Adds `key` with the byte count of a payload this build cannot read.
    mutating func add(_ key: JSONKey, opaquePayload payload: [UInt8])
}

extension JSONMemberSink where Self: ~Copyable {
    mutating func add(_ key: JSONKey, unsigned value: UInt64) { add(key, .unsigned(value)) }
    mutating func add(_ key: JSONKey, integer value: Int64) { add(key, .integer(value)) }
    mutating func add(_ key: JSONKey, number value: Double) { add(key, .number(value)) }
    mutating func add(_ key: JSONKey, bool value: Bool) { add(key, .bool(value)) }
    mutating func addNull(_ key: JSONKey) { add(key, .null) }
    mutating func add(_ key: JSONKey, task: TaskID) { add(key, FactJSON.task(task)) }
    mutating func add(_ key: JSONKey, switch id: SwitchID) { add(key, FactJSON.switchID(id)) }

    /// Adds `key` with the JSON string `text`, or null when it is nil.
    mutating func add(_ key: JSONKey, string text: String?) {
        if let text { add(key, string: text) } else { addNull(key) }
    }

    /// Adds `key` with a call id's text, or null when it is nil.
    mutating func add(_ key: JSONKey, call: CallID?) {
        if let call { add(key, call: call) } else { addNull(key) }
    }

    /// Adds `key` with a project's fingerprint, or null when it is nil.
    mutating func add(_ key: JSONKey, project: ProjectFingerprint?) {
        if let project { add(key, project: project) } else { addNull(key) }
    }

    mutating func add(_ key: JSONKey, personal text: String?, kind: String) { add(key, string: text) }
    mutating func add(_ key: JSONKey, freeText text: String?) { add(key, string: text) }
    mutating func add(_ key: JSONKey, freeTexts texts: [String]) { add(key, .array(texts.map(JSONValue.string))) }

    mutating func add(_ key: JSONKey, dataFields members: [String: DataValue]?) {
        if let members { addObject(key) { FactJSON.write(data: members, into: &$0) } } else { addNull(key) }
    }

    mutating func add(_ key: JSONKey, items: [CommerceItem]) { add(key, FactJSON.items(items)) }
    mutating func add(_ key: JSONKey, body: [UInt8]) { add(key, utf8: body) }
    mutating func add(_ key: JSONKey, query: String?) { add(key, string: query) }
    mutating func add(_ key: JSONKey, opaquePayload payload: [UInt8]) { add(key, integer: Int64(payload.count)) }
}
