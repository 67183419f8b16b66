import SDK

/// A ``JSONMemberSink`` that writes each member as it is added, as `,"key":value` after the
/// members already written (the first member of a nested object without the comma), into the
/// bytes it holds: a row is written without a tree being built for it.
///
/// Top-level keys can be renamed on the way (an NDJSON row's fleet columns reserve some names);
/// keys of nested objects are written as given.
///
/// With a ``Redactor``, the personal values ``FactJSON`` marks are written redacted: a fact's
/// members come out byte for byte as the members of the redactor's redacted fact
/// (``Redactor/redact(_:)-(Fact)``) would, with the same tokens, and no redacted fact is built.
struct JSONMemberBytes: ~Copyable, JSONMemberSink {
    private var output: ScratchBytes
    private var depth = 0
    private var needsComma: Bool
    private let renameTopLevel: (UnsafeBufferPointer<UInt8>) -> String?
    private let redactor: Redactor?

    /// Continues `output`, whose object is open: with `afterMembers`, a comma comes before the
    /// first member added. `renameTopLevel` gives the key to write in place of a top-level key
    /// (nil: the key itself), given its UTF-8 bytes. With `redactor`, personal values are
    /// written redacted.
    init(continuing output: consuming ScratchBytes, afterMembers: Bool,
         renameTopLevel: @escaping (UnsafeBufferPointer<UInt8>) -> String? = { _ in nil }, redactor: Redactor? = nil) {
        self.output = output
        self.needsComma = afterMembers
        self.renameTopLevel = renameTopLevel
        self.redactor = redactor
    }

    /// The bytes, with every member added.
    consuming func finish() -> ScratchBytes {
        output
    }

    private mutating func key(_ key: JSONKey) {
        let comma = needsComma
        needsComma = true
        key.withUTF8 { bytes in
            if depth == 0, let renamed = renameTopLevel(bytes) {
                if comma { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(renamed, to: &output)
                output.append(UInt8(ascii: ":"))
                return
            }
            JSONValue.writeMemberKey(wellFormedUTF8: bytes, comma: comma, to: &output)
        }
    }

    mutating func add(_ key: JSONKey, _ value: JSONValue) {
        self.key(key)
        value.write(to: &output)
    }

    mutating func add(_ key: JSONKey, string text: String) {
        self.key(key)
        JSONValue.writeString(text, to: &output)
    }

    mutating func add(_ key: JSONKey, utf8 text: [UInt8]) {
        self.key(key)
        JSONValue.writeString(utf8: text, to: &output)
    }

    mutating func add(_ key: JSONKey, call: CallID) {
        self.key(key)
        FactJSON.writeCallID(call, to: &output)
    }

    mutating func add(_ key: JSONKey, project: ProjectFingerprint) {
        self.key(key)
        output.append(UInt8(ascii: "\""))
        project.writeHex(to: &output)
        output.append(UInt8(ascii: "\""))
    }

    mutating func addObject(_ key: JSONKey, _ members: (inout JSONMemberBytes) -> Void) {
        self.key(key)
        output.append(UInt8(ascii: "{"))
        depth += 1
        needsComma = false
        members(&self)
        depth -= 1
        needsComma = true
        output.append(UInt8(ascii: "}"))
    }

    // MARK: - Personal values

    mutating func add(_ key: JSONKey, personal text: String?, kind: String) {
        guard let redactor, let text else { return add(key, string: text) }
        self.key(key)
        text.utf8.withContiguousBytes { redactor.writeToken(utf8: $0, kind, to: &output) }
    }

    mutating func add(_ key: JSONKey, freeText text: String?) {
        guard let redactor, let text else { return add(key, string: text) }
        add(key, string: redactor.redact(text: text))
    }

    mutating func add(_ key: JSONKey, freeTexts texts: [String]) {
        add(key, .array(texts.map { .string(redactor?.redact(text: $0) ?? $0) }))
    }

    mutating func add(_ key: JSONKey, dataFields members: [String: DataValue]?) {
        guard let members else { return addNull(key) }
        addObject(key) { $0.addData(members) }
    }

    /// Adds data fields as ``FactJSON/write(data:into:)`` writes them (keys sorted), each
    /// value redacted as ``Redactor/redact(data:)-(DataValue)`` redacts it when there is a
    /// redactor.
    private mutating func addData(_ members: [String: DataValue]) {
        guard let redactor else { return FactJSON.write(data: members, into: &self) }
        guard !redactor.summarizes else { return FactJSON.write(data: redactor.redact(data: members), into: &self) }
        for (name, value) in Self.redactedKeys(members, redactor) {
            if case .object(let nested) = value {
                addObject(JSONKey(name)) { $0.addData(nested) }
            } else {
                key(JSONKey(name))
                Self.writeRedacted(data: value, redactor, to: &output)
            }
        }
    }

    /// Writes the JSON of `redactor.redact(data: value)` as ``FactJSON/data(_:)-(DataValue)``
    /// spells it: every leaf but null a `data` token of its text, arrays and objects (keys
    /// sorted) kept.
    private static func writeRedacted(data value: DataValue, _ redactor: Redactor, to output: inout ScratchBytes) {
        switch value {
        case .null:
            output.append("null" as StaticString)
        case .string(let text):
            text.utf8.withContiguousBytes { redactor.writeToken(utf8: $0, "data", to: &output) }
        case .integer(let number):
            String(number).utf8.withContiguousBytes { redactor.writeToken(utf8: $0, "data", to: &output) }
        case .number(let number):
            "\(number)".utf8.withContiguousBytes { redactor.writeToken(utf8: $0, "data", to: &output) }
        case .bool(let flag):
            (flag ? "true" as StaticString : "false").withUTF8Buffer { redactor.writeToken(utf8: $0, "data", to: &output) }
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeRedacted(data: element, redactor, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (name, member)) in redactedKeys(members, redactor).enumerated() {
                name.utf8.withContiguousBytes { JSONValue.writeMemberKey(wellFormedUTF8: $0, comma: index > 0, to: &output) }
                writeRedacted(data: member, redactor, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The members with their keys redacted (``Redactor/redact(dataKey:)``), sorted by the
    /// redacted key as the redacted fact's JSON sorts them.
    private static func redactedKeys(_ members: [String: DataValue], _ redactor: Redactor) -> [(key: String, value: DataValue)] {
        members.map { (key: redactor.redact(dataKey: $0.key), value: $0.value) }.sorted { $0.key < $1.key }
    }

    mutating func add(_ key: JSONKey, items: [CommerceItem]) {
        add(key, FactJSON.items(redactor.map { redactor in items.map(redactor.redact) } ?? items))
    }

    mutating func add(_ key: JSONKey, body: [UInt8]) {
        add(key, utf8: redactor?.redact(body: body) ?? body)
    }

    mutating func add(_ key: JSONKey, query: String?) {
        add(key, string: redactor.flatMap { redactor in query.map(redactor.redact(query:)) } ?? query)
    }

    mutating func add(_ key: JSONKey, opaquePayload payload: [UInt8]) {
        // A redacted fact keeps nothing of a payload it cannot read.
        add(key, integer: redactor == nil ? Int64(payload.count) : 0)
    }
}
