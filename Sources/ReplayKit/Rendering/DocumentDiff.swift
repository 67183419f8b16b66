/// Field-by-field differences between two documents (see ``StateDocument``).
///
/// Each document is flattened into `path → value` leaves (`switch_chain.in_flight.switch`);
/// arrays of scalars count as one leaf; nulls and empty objects have none. A change is a leaf that appears, disappears or has a
/// different value.
package struct DocumentDiff {
    package struct Change {
        package var path: String
        /// Nil when the leaf appears.
        var before: JSONValue?
        /// Nil when the leaf disappears.
        var after: JSONValue?
    }

    package private(set) var changes: [Change] = []

    package init(from before: JSONValue, to after: JSONValue) {
        let old = Self.leaves(before)
        let new = Self.leaves(after)
        let oldByPath = Dictionary(old.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        let newByPath = Dictionary(new.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        // In the newer document's order, with disappeared leaves where they used to be.
        var emitted = Set<String>()
        var oldIndex = 0
        for leaf in new {
            while oldIndex < old.count, newByPath[old[oldIndex].path] == nil {
                changes.append(Change(path: old[oldIndex].path, before: old[oldIndex].value, after: nil))
                oldIndex += 1
            }
            if oldIndex < old.count, old[oldIndex].path == leaf.path { oldIndex += 1 }
            guard emitted.insert(leaf.path).inserted else { continue }
            if let previous = oldByPath[leaf.path] {
                if previous != leaf.value { changes.append(Change(path: leaf.path, before: previous, after: leaf.value)) }
            } else {
                changes.append(Change(path: leaf.path, before: nil, after: leaf.value))
            }
        }
        while oldIndex < old.count {
            if newByPath[old[oldIndex].path] == nil {
                changes.append(Change(path: old[oldIndex].path, before: old[oldIndex].value, after: nil))
            }
            oldIndex += 1
        }
    }

    package var isEmpty: Bool { changes.isEmpty }

    /// `~ path: old -> new`, `+ path: new`, `- path: old`.
    package func lines(ignoring ignored: Set<String> = []) -> [String] {
        changes.filter { !ignored.contains($0.path) }.map { change in
            switch (change.before, change.after) {
            case (let before?, let after?): "~ \(change.path): \(DocumentText.scalar(before)) -> \(DocumentText.scalar(after))"
            case (nil, let after?): "+ \(change.path): \(DocumentText.scalar(after))"
            case (let before?, nil): "- \(change.path): \(DocumentText.scalar(before))"
            case (nil, nil): "  \(change.path)"
            }
        }
    }

    package var json: JSONValue {
        .array(changes.map { change in
            .object([("path", .string(change.path)), ("from", change.before ?? .null), ("to", change.after ?? .null),
                     ("change", .string(change.before == nil ? "added" : change.after == nil ? "removed" : "changed"))])
        })
    }

    /// The leaves of a document in order.
    static func leaves(_ document: JSONValue, prefix: String = "") -> [(path: String, value: JSONValue)] {
        switch document {
        case .object(let members) where !members.isEmpty:
            return members.flatMap { key, value in leaves(value, prefix: prefix.isEmpty ? key : prefix + "." + key) }
        case .array(let elements) where !DocumentText.isInline(document):
            return elements.enumerated().flatMap { index, element in leaves(element, prefix: prefix + "[\(index)]") }
        case .object, .null:
            // Empty collections and nulls have no leaves: filling one shows as additions.
            return []
        default:
            return prefix.isEmpty ? [] : [(prefix, document)]
        }
    }
}
