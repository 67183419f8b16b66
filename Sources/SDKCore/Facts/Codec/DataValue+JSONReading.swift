import Journal

extension DataValue {
    /// The members of the JSON object in `bytes` (nothing may follow it but whitespace), which
    /// sit at `baseOffset` in a record's payload: how a data object stored as JSON since format
    /// 1.3 (``DataObject``, field 2) is read back, through ``JSONReader``.
    ///
    /// The writer (``writeJSON(to:depth:fidelity:)``) stores JSON only when it reads back
    /// exactly, and this is how: a number that is an optional minus and digits within `Int64` is
    /// an ``integer(_:)``, every other number a ``number(_:)`` (the writer writes a `Double` with
    /// a point or an exponent). Any JSON is read, not only the writer's: whitespace between
    /// tokens, every escape, a repeated key (the last one wins, as for entries). Malformed input
    /// throws ``CodecError`` with the offset, never traps. Nesting is limited as the writer
    /// limits it (``maxDepth`` levels, the object itself the first): whatever this reads,
    /// written again as entries (a message per level and member), stays within
    /// ``FieldReader/maxDepth``.
    static func members(ofJSON bytes: UnsafeRawBufferPointer, baseOffset: Int) throws(CodecError) -> [String: DataValue] {
        var reader = JSONReader(bytes)
        do throws(JSONReader.Failure) {
            reader.skipWhitespace()
            let members = try object(&reader, level: 1)
            reader.skipWhitespace()
            guard reader.isAtEnd else { throw reader.failure("bytes after the data fields' JSON") }
            return members
        } catch {
            throw CodecError("data fields' JSON: \(error.reason)", offset: baseOffset + error.offset)
        }
    }

    /// Throws unless a value at `level` (the object's own being 1) is within ``maxDepth``.
    private static func checkLevel(_ level: Int, _ reader: JSONReader) throws(JSONReader.Failure) {
        guard level <= maxDepth else { throw reader.failure("nested deeper than \(maxDepth) levels") }
    }

    private static func object(_ reader: inout JSONReader, level: Int) throws(JSONReader.Failure) -> [String: DataValue] {
        try checkLevel(level, reader)
        var members: [String: DataValue] = [:]
        try reader.readObject { key, reader throws(JSONReader.Failure) in
            // Room for the commonest objects (one to three members) made at once: a dictionary
            // grown from empty is made for one member, then made again for the second. (Made
            // new, not reserved: `reserveCapacity` is not specialized here and looks up the
            // dictionary's generic type at run time, which costs more than it saves.)
            if members.isEmpty { members = Dictionary(minimumCapacity: 3) }
            members[key] = try value(&reader, level: level + 1)
        }
        return members
    }

    private static func value(_ reader: inout JSONReader, level: Int) throws(JSONReader.Failure) -> DataValue {
        try checkLevel(level, reader)
        guard let byte = reader.next else { throw reader.failure("a value expected") }
        switch byte {
        case UInt8(ascii: "{"):
            return .object(try object(&reader, level: level))
        case UInt8(ascii: "["):
            var elements: [DataValue] = []
            try reader.readArray { reader throws(JSONReader.Failure) in elements.append(try value(&reader, level: level + 1)) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try reader.string())
        default:
            if let keyword = try reader.keyword() { return keyword.bool.map(DataValue.bool) ?? .null }
            return try number(&reader)
        }
    }

    /// An integer (an optional minus and digits, within `Int64`) or, for any other number, a
    /// finite `Double`.
    private static func number(_ reader: inout JSONReader) throws(JSONReader.Failure) -> DataValue {
        let run = reader.numberRun()
        let text = reader.bytes(run)
        guard !text.isEmpty else { throw reader.failure("a value expected") }
        if let integer = JSONReader.integer(text) { return .integer(integer) }
        guard let number = Double(String(decoding: text, as: UTF8.self)), number.isFinite else {
            reader.rewind(to: run.lowerBound)
            throw reader.failure("`\(String(decoding: text, as: UTF8.self))` is not a finite number")
        }
        return .number(number)
    }
}
