import Foundation

/// A read-only view of parsed JSON for tests that look at a few fields and ignore the rest (so
/// new fields in an output never break them). A missing key or a wrong type reads as nil.
struct JSONProbe {
    let value: Any?

    init(_ value: Any?) {
        self.value = value
    }

    /// Parses one JSON document; nil when it is not JSON.
    init?(parsing text: some StringProtocol) {
        guard let data = String(text).data(using: .utf8),
              let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        self.value = value
    }

    /// Parses each non-empty line (NDJSON); a line that is not JSON reads as a nil probe.
    static func lines(_ text: String) -> [JSONProbe] {
        text.split(separator: "\n").map { JSONProbe(parsing: $0) ?? JSONProbe(nil) }
    }

    subscript(key: String) -> JSONProbe {
        JSONProbe((value as? [String: Any])?[key])
    }

    var string: String? { value as? String }
    var int: Int? { value as? Int }
    var bool: Bool? { value as? Bool }
    var isNull: Bool { value is NSNull }
    /// The keys of an object.
    var keys: [String] { (value as? [String: Any]).map { Array($0.keys) } ?? [] }
    /// The elements of an array.
    var array: [JSONProbe] { (value as? [Any])?.map(JSONProbe.init) ?? [] }
    /// The number of members of an object or elements of an array.
    var count: Int? { (value as? [String: Any])?.count ?? (value as? [Any])?.count }
}
