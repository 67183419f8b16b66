import Foundation

/// The header fields of a request, looked up case-insensitively.
///
/// Names are stored lowercased; repeated fields are kept in order and combined with `", "`
/// when read through the subscript, as HTTP allows for list-valued fields.
struct HTTPHeaders: Sendable, Equatable {
    /// A single header field as received (name lowercased, value trimmed).
    struct Field: Sendable, Equatable {
        let name: String
        let value: String
    }

    private(set) var fields: [Field] = []

    /// Appends a field; `name` is lowercased.
    mutating func append(name: String, value: String) {
        fields.append(Field(name: name.lowercased(), value: value))
    }

    /// The combined value of every field called `name` (any case), or nil when there is none.
    subscript(name: String) -> String? {
        let lowercasedName = name.lowercased()
        let values = fields.lazy.filter { $0.name == lowercasedName }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The comma-separated elements of the field called `name`, trimmed and lowercased.
    func tokens(_ name: String) -> [String] {
        guard let value = self[name] else { return [] }
        return value
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .httpWhitespace).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Every field as lowercased name to combined value.
    var dictionary: [String: String] {
        fields.reduce(into: [:]) { result, field in
            if let existing = result[field.name] {
                result[field.name] = existing + ", " + field.value
            } else {
                result[field.name] = field.value
            }
        }
    }
}
