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
    /// How deep a value sent as JSON may nest.
    static let maxDepth = 32

    /// The first problem that makes this value unsendable as JSON: a non-finite number, or
    /// nesting deeper than `maxDepth`. Nil when the value is fine. `path` names the value.
    func problem(maxDepth: Int = DataValue.maxDepth, path: String = "") -> String? {
        // Nearly every value is fine: that is found without sorting a member or naming a path.
        guard hasProblem(depth: maxDepth), let (reason, trail) = firstProblem(depth: maxDepth) else { return nil }
        var name = path
        for step in trail.reversed() { name = name.isEmpty ? step : (step.hasPrefix("[") ? name + step : name + "." + step) }
        return "\(name.isEmpty ? "value" : name) \(reason)"
    }

    /// Whether the value nests deeper than `depth` levels (itself the first). Walks at most
    /// `depth + 1` levels, however deep the value is.
    func nestsDeeper(than depth: Int) -> Bool {
        guard depth > 0 else { return true }
        switch self {
        case .array(let elements): return elements.contains { $0.nestsDeeper(than: depth - 1) }
        case .object(let members): return members.values.contains { $0.nestsDeeper(than: depth - 1) }
        case .string, .integer, .number, .bool, .null: return false
        }
    }

    /// Whether ``firstProblem(depth:)`` finds one, walking members in any order.
    private func hasProblem(depth: Int) -> Bool {
        guard depth > 0 else { return true }
        switch self {
        case .number(let value): return !value.isFinite
        case .array(let elements): return elements.contains { $0.hasProblem(depth: depth - 1) }
        case .object(let members): return members.values.contains { $0.hasProblem(depth: depth - 1) }
        default: return false
        }
    }

    /// The problem and the keys leading to it, innermost first (built only when there is one).
    private func firstProblem(depth: Int) -> (String, [String])? {
        guard depth > 0 else { return ("is nested too deeply", []) }
        switch self {
        case .number(let value) where !value.isFinite:
            return ("is not a finite number (\(value))", [])
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if var found = element.firstProblem(depth: depth - 1) {
                    found.1.append("[\(index)]")
                    return found
                }
            }
        case .object(let members):
            for member in members.sorted(by: { String.utf8Precedes($0.key, $1.key) }) {
                if var found = member.value.firstProblem(depth: depth - 1) {
                    found.1.append(member.key)
                    return found
                }
            }
        default:
            break
        }
        return nil
    }

    /// Compact JSON with sorted object keys.
    func json() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// Compact JSON with sorted object keys, as UTF-8 bytes.
    func jsonBytes() -> [UInt8] {
        ScratchBytes.withScratch { output in
            writeJSON(to: &output)
            return output.array
        }
    }

    func writeJSON(to output: inout ScratchBytes) {
        var fidelity = JSONFidelity.exact
        writeJSON(to: &output, depth: .max, fidelity: &fidelity)
    }

    /// ``writeJSON(to:)``, saying how the JSON stands for the value: `fidelity` is raised to
    /// ``JSONFidelity/wholeNumbers`` by a whole `Double` written as an integer, and to
    /// ``JSONFidelity/unsendable`` by a number that is not finite or by nesting past `depth`
    /// levels (the value itself is the first; past them nothing more is written). Never lowered.
    func writeJSON(to output: inout ScratchBytes, depth: Int, fidelity: inout JSONFidelity) {
        guard depth > 0 else {
            fidelity = .unsendable
            return
        }
        switch self {
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .integer(let value): Self.writeInteger(value, to: &output)
        case .number(let value):
            if !value.isFinite {
                fidelity = .unsendable
                output.append("null" as StaticString)
            } else {
                if Self.isWrittenAsInteger(value) { fidelity = max(fidelity, .wholeNumbers) }
                output.append(Self.shortest(value))
            }
        case .bool(let value): output.append(value ? "true" as StaticString : "false")
        case .null: output.append("null" as StaticString)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.writeJSON(to: &output, depth: depth - 1, fidelity: &fidelity)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if members.count <= 2 {
                // The commonest objects (a call's one or two data fields), written member by
                // member with no closure between them and the writer.
                var iterator = members.makeIterator()
                if let first = iterator.next() {
                    if let second = iterator.next() {
                        let secondFirst = String.utf8Precedes(second.key, first.key)
                        Self.writeMember(secondFirst ? second : first, to: &output, depth: depth, fidelity: &fidelity)
                        output.append(UInt8(ascii: ","))
                        Self.writeMember(secondFirst ? first : second, to: &output, depth: depth, fidelity: &fidelity)
                    } else {
                        Self.writeMember(first, to: &output, depth: depth, fidelity: &fidelity)
                    }
                }
            } else {
                var first = true
                Self.forEachMemberInKeyOrder(of: members) { key, value in
                    if !first { output.append(UInt8(ascii: ",")) }
                    first = false
                    Self.writeMember((key, value), to: &output, depth: depth, fidelity: &fidelity)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeInteger(_ value: Int64, to output: inout ScratchBytes) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        output.appendDecimal(value.magnitude)
    }

    /// Writes `"key":value` for a member of an object `depth` levels from the limit.
    private static func writeMember(_ member: (key: String, value: DataValue), to output: inout ScratchBytes, depth: Int,
                                    fidelity: inout JSONFidelity) {
        JSONValue.writeString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        // The commonest values, a data field's string or integer, written here rather than
        // through another call of ``writeJSON(to:depth:fidelity:)``; at the depth limit they go through it, which marks them unsendable.
        switch member.value {
        case .string(let text) where depth > 1:
            JSONValue.writeString(text, to: &output)
        case .integer(let value) where depth > 1:
            writeInteger(value, to: &output)
        default:
            member.value.writeJSON(to: &output, depth: depth - 1, fidelity: &fidelity)
        }
    }

    /// Objects up to this many members are put in key order on the stack, not in an array.
    private static let smallObject = 16

    /// Calls `body` with each member of `members` in key order (UTF-8 byte order: the order
    /// journal records and request bodies write them in). A small object's members are
    /// insertion-sorted into a stack buffer, allocating nothing; a larger one sorts its pairs.
    static func forEachMemberInKeyOrder(of members: [String: DataValue], _ body: (String, DataValue) -> Void) {
        switch members.count {
        case 0:
            return
        case 1:
            for member in members { body(member.key, member.value) }
        case 2:
            // The commonest object after one member: its two members compared once, with no
            // buffer to sort them in.
            let first = members.startIndex
            let second = members.index(after: first)
            let (a, b) = (members[first], members[second])
            if String.utf8Precedes(b.key, a.key) {
                body(b.key, b.value)
                body(a.key, a.value)
            } else {
                body(a.key, a.value)
                body(b.key, b.value)
            }
        case ...smallObject:
            withUnsafeTemporaryAllocation(of: (key: String, value: DataValue).self, capacity: members.count) { buffer in
                guard let base = buffer.baseAddress else { return }
                var count = 0
                for member in members {
                    var slot = count
                    while slot > 0 && String.utf8Precedes(member.key, base[slot - 1].key) {
                        (base + slot).moveInitialize(from: base + slot - 1, count: 1)
                        slot -= 1
                    }
                    (base + slot).initialize(to: member)
                    count += 1
                }
                // Moved out one at a time: each member is released after its call, with no
                // second copy and no generic destroy of the buffer.
                for index in 0..<count {
                    let member = (base + index).move()
                    body(member.key, member.value)
                }
            }
        default:
            for member in members.sorted(by: { String.utf8Precedes($0.key, $1.key) }) { body(member.key, member.value) }
        }
    }

    /// The length of ``jsonBytes()`` without building it.
    var jsonByteCount: Int {
        switch self {
        case .string(let text): Self.jsonStringByteCount(text)
        case .integer(let value): (value < 0 ? 1 : 0) + JSONValue.decimalDigitCount(value.magnitude)
        case .number(let value): (value.isFinite ? Self.shortest(value) : "null").utf8.count
        case .bool(let value): value ? 4 : 5
        case .null: 4
        case .array(let elements): 2 + max(0, elements.count - 1) + elements.reduce(0) { $0 + $1.jsonByteCount }
        case .object(let members):
            2 + max(0, members.count - 1) + members.reduce(0) { $0 + Self.jsonStringByteCount($1.key) + 1 + $1.value.jsonByteCount }
        }
    }

    private static func jsonStringByteCount(_ text: String) -> Int {
        2 + JSONValue.escapedByteCount(of: text)
    }

    /// The shortest decimal that reads back as `value` (Swift's own description), written as
    /// an integer when the value is whole and below 10^15 (``isWrittenAsInteger(_:)``). Every
    /// other finite value's description has a point or an exponent.
    private static func shortest(_ value: Double) -> String {
        if isWrittenAsInteger(value) { return String(Int64(value)) }
        return "\(value)"
    }

    /// Whether ``shortest(_:)`` writes the finite `value` as an integer.
    private static func isWrittenAsInteger(_ value: Double) -> Bool {
        value == value.rounded() && abs(value) < 1e15
    }
}

extension String {
    /// Orders strings by their UTF-8 bytes (the same as by code points): fast, and the same on
    /// every platform, so sorted keys give the same bytes everywhere.
    static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        let compared: Bool?? = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<Swift.min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
        if let compared = compared ?? nil { return compared }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
