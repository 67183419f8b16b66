/// A JSON value: the type of `dataFields` and other free-form arguments.
///
/// Object keys are kept sorted when encoded, so equal values always give equal bytes (in the
/// journal and in request bodies).
public enum DataValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case array([DataValue])
    case object([String: DataValue])
}

extension DataValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: DataValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, DataValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension DataValue {
    /// The first problem that makes this value unsendable as JSON: a non-finite number, or
    /// nesting deeper than `maxDepth`. Nil when the value is fine.
    func problem(maxDepth: Int = 32, path: String = "") -> String? {
        guard maxDepth > 0 else { return "\(path.isEmpty ? "value" : path) is nested too deeply" }
        switch self {
        case .number(let value) where !value.isFinite:
            return "\(path.isEmpty ? "value" : path) is not a finite number (\(value))"
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let problem = element.problem(maxDepth: maxDepth - 1, path: "\(path)[\(index)]") { return problem }
            }
        case .object(let members):
            for key in members.keys.sorted() {
                if let problem = members[key]!.problem(maxDepth: maxDepth - 1, path: path.isEmpty ? key : "\(path).\(key)") {
                    return problem
                }
            }
        default:
            break
        }
        return nil
    }

    /// Compact JSON with sorted object keys.
    func json() -> String {
        var output = ""
        writeJSON(to: &output)
        return output
    }

    func writeJSON(to output: inout String) {
        switch self {
        case .string(let text): Self.writeJSONString(text, to: &output)
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? Self.shortest(value) : "null"
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.writeJSON(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.writeJSONString(key, to: &output)
                output += ":"
                members[key]!.writeJSON(to: &output)
            }
            output += "}"
        }
    }

    static func writeJSONString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// The shortest decimal that reads back as `value` (Swift's own description).
    private static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
