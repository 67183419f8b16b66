import SDK

// `JSONValue.optional` for the types the renderings pass most (a row has a dozen such columns):
// concrete, so no generic Optional is built at run time per column. The same values.
extension JSONValue {
    static func optional(_ value: String?, _ transform: (String) -> JSONValue) -> JSONValue {
        if let value { transform(value) } else { .null }
    }

    static func optional(_ value: ProjectFingerprint?, _ transform: (ProjectFingerprint) -> JSONValue) -> JSONValue {
        if let value { transform(value) } else { .null }
    }

    static func optional(_ value: CallID?, _ transform: (CallID) -> JSONValue) -> JSONValue {
        if let value { transform(value) } else { .null }
    }

    static func optional(_ value: TaskID?, _ transform: (TaskID) -> JSONValue) -> JSONValue {
        if let value { transform(value) } else { .null }
    }

    static func optional(_ value: SwitchID?, _ transform: (SwitchID) -> JSONValue) -> JSONValue {
        if let value { transform(value) } else { .null }
    }

    static func optional(_ value: UInt64?, _ transform: (UInt64) -> JSONValue) -> JSONValue {
        if let value { transform(value) } else { .null }
    }
}
