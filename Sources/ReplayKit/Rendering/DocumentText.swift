/// Prints a document (a ``JSONValue`` tree of objects) as indented, aligned text:
///
/// ```
/// identity
///   email       ada@example.com
///   push_token  -
/// ```
///
/// Objects nest by two spaces; a scalar member is `name  value` with values aligned within
/// their object; null is `-`; an array of scalars is one comma-separated line; empty
/// collections print as `(none)`.
package enum DocumentText {
    package static func lines(_ document: JSONValue, indent: Int = 0) -> [String] {
        guard case .object(let members) = document else { return [String(repeating: " ", count: indent) + scalar(document)] }
        let pad = String(repeating: " ", count: indent)
        let width = members.filter { isInline($0.1) }.map(\.0.count).max() ?? 0
        var lines: [String] = []
        for (key, value) in members {
            if isInline(value) {
                lines.append(pad + key + String(repeating: " ", count: width - key.count) + "  " + scalar(value))
            } else if case .array(let elements) = value {
                lines.append(pad + key)
                for (index, element) in elements.enumerated() {
                    lines.append(pad + "  [\(index)]")
                    lines += self.lines(element, indent: indent + 4)
                }
            } else {
                lines.append(pad + key)
                lines += self.lines(value, indent: indent + 2)
            }
        }
        return lines
    }

    /// Whether a value prints on its member's line.
    static func isInline(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): members.isEmpty
        case .array(let elements): elements.allSatisfy { if case .object = $0 { false } else if case .array = $0 { false } else { true } }
        default: true
        }
    }

    /// A scalar (or a short collection) as text.
    package static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .unsigned(let number): String(number)
        case .number(let number): Describe.number(number)
        case .bool(let flag): flag ? "yes" : "no"
        case .null: "-"
        case .object(let members): members.isEmpty ? "(none)" : value.serialized()
        case .array(let elements): elements.isEmpty ? "(none)" : elements.map(scalar).joined(separator: ", ")
        }
    }
}
