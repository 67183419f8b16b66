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
        var lines: [String] = []
        append(document, indent: indent, to: &lines)
        return lines
    }

    /// Appends the lines of `document` to `lines`: one array for the whole document rather than
    /// one per nested object, copied into its parent's.
    private static func append(_ document: JSONValue, indent: Int, to lines: inout [String]) {
        guard case .object(let members) = document else {
            lines.append(String(repeating: " ", count: indent) + scalar(document))
            return
        }
        let pad = String(repeating: " ", count: indent)
        var width = 0
        for (key, value) in members where isInline(value) { width = max(width, key.count) }
        for (key, value) in members {
            if isInline(value) {
                lines.append(pad + key + String(repeating: " ", count: width - key.count) + "  " + scalar(value))
            } else if case .array(let elements) = value {
                lines.append(pad + key)
                for (index, element) in elements.enumerated() {
                    lines.append(pad + "  [\(index)]")
                    append(element, indent: indent + 4, to: &lines)
                }
            } else {
                lines.append(pad + key)
                append(value, indent: indent + 2, to: &lines)
            }
        }
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
