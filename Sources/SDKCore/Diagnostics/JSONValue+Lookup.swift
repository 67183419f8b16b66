extension JSONValue {
    /// The value of member `key` of an object (the first, should the key repeat); nil for
    /// anything else.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The text of a string value; nil for anything else.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
