import Foundation

/// The header fields of a request, looked up case-insensitively.
///
/// Names are stored lowercased; repeated fields are kept in order and combined with `", "`
/// when read through the subscript, as HTTP allows for list-valued fields.
package struct HTTPHeaders: Sendable, Equatable {
    /// A single header field as received (name lowercased, value trimmed).
    package struct Field: Sendable, Equatable {
        package let name: String
        package let value: String
    }

    package private(set) var fields: [Field] = []

    /// No fields.
    package init() {}

    /// Appends a field; `name` is lowercased.
    package mutating func append(name: String, value: String) {
        fields.append(Field(name: name.lowercased(), value: value))
    }

    /// The combined value of every field called `name` (any case), or nil when there is none.
    package subscript(name: String) -> String? {
        let lowercasedName = name.lowercased()
        let values = fields.lazy.filter { $0.name == lowercasedName }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The comma-separated elements of the field called `name`, trimmed and lowercased.
    package func tokens(_ name: String) -> [String] {
        guard let value = self[name] else { return [] }
        return value
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .httpWhitespace).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Every field as lowercased name to combined value.
    package var dictionary: [String: String] {
        fields.reduce(into: [:]) { result, field in
            if let existing = result[field.name] {
                result[field.name] = existing + ", " + field.value
            } else {
                result[field.name] = field.value
            }
        }
    }
}
