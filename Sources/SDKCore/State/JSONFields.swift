/// The members of a JSON object under construction, kept in a small array rather than a
/// dictionary (request bodies have a handful of keys), written with sorted keys like
/// ``DataValue/object(_:)``.
struct JSONFields: ExpressibleByDictionaryLiteral {
    private var members: [(key: String, value: DataValue)] = []

    init() {}

    init(dictionaryLiteral elements: (String, DataValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    subscript(key: String) -> DataValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// These members with `other`'s added (other's win on equal keys).
    func adding(_ other: JSONFields) -> JSONFields {
        var result = self
        for member in other.members { result[member.key] = member.value }
        return result
    }

    var dataValue: DataValue {
        .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }

    /// Compact JSON, keys sorted.
    func jsonBytes() -> [UInt8] {
        ScratchBytes.withScratch { output in
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { String.utf8Precedes($0.key, $1.key) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.writeJSON(to: &output)
            }
            output.append(UInt8(ascii: "}"))
            return output.array
        }
    }
}
