/// All fields of a message, looked up by number (repeated ones kept in order; for a field
/// given more than once where one is expected, the last counts).
///
/// A flat list searched from the end: messages have a dozen fields at most, so a scan is
/// cheaper than hashing every field of every record decoded.
struct FieldsByNumber {
    private var fields: [FieldReader.Field] = []

    init(_ reader: inout FieldReader) throws(CodecError) {
        while let field = try reader.next() { fields.append(field) }
    }

    private func last(_ number: Int) -> FieldReader.Field? { fields.last { $0.number == number } }

    func string(_ number: Int) throws(CodecError) -> String? { try last(number)?.string() }
    func strings(_ number: Int) throws(CodecError) -> [String] {
        var values: [String] = []
        for field in fields where field.number == number { values.append(try field.string()) }
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
