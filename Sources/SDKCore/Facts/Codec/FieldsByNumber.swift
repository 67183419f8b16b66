/// All fields of a message, looked up by number (repeated ones kept in order; for a field
/// given more than once where one is expected, the last counts).
///
/// Keeps no copy of the fields: the message is read through once up front (so malformed bytes
/// throw where they did), and each look-up reads it again. Messages have a dozen fields at
/// most, so a scan is cheaper than storing, or hashing, every field of every record decoded.
struct FieldsByNumber {
    private let reader: FieldReader

    init(_ reader: inout FieldReader) throws(CodecError) {
        self.reader = reader
        while try reader.next() != nil {}
    }

    /// The fields of a message `reader` (at its start) was already read through without error.
    init(readThrough reader: FieldReader) {
        self.reader = reader
    }

    /// The last field numbered `number`.
    func last(_ number: Int) -> FieldReader.Field? {
        var scan = reader
        var found: FieldReader.Field?
        // The message was read through without error at init: it cannot throw now.
        while let field = (try? scan.next()) ?? nil { if field.number == number { found = field } }
        return found
    }

    /// Every field numbered `number`, in order.
    func each(_ number: Int, _ handle: (FieldReader.Field) throws(CodecError) -> Void) throws(CodecError) {
        var scan = reader
        while let field = (try? scan.next()) ?? nil { if field.number == number { try handle(field) } }
    }

    func string(_ number: Int) throws(CodecError) -> String? { try last(number)?.string() }
    func strings(_ number: Int) throws(CodecError) -> [String] {
        var values: [String] = []
        try each(number) { (field) throws(CodecError) in values.append(try field.string()) }
        return values
    }
    func unsigned(_ number: Int) throws(CodecError) -> UInt64? { try last(number)?.unsigned() }
    func signed(_ number: Int) throws(CodecError) -> Int64? { try last(number)?.signed() }
    func int(_ number: Int) throws(CodecError) -> Int? { try last(number)?.int() }
    func bool(_ number: Int) throws(CodecError) -> Bool { try last(number)?.bool() ?? false }
    func message<Value: FieldCodable>(_ number: Int, _ type: Value.Type = Value.self) throws(CodecError) -> Value? {
        try last(number)?.message(Value.self)
    }
    func required<Value: FieldCodable>(_ number: Int, _ name: String, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let value: Value = try message(number) else { throw missing(name) }
        return value
    }
}
