/// All fields of a message by number (repeated ones kept in order).
struct FieldsByNumber {
    private var fields: [Int: [FieldReader.Field]] = [:]

    init(_ reader: inout FieldReader) throws(CodecError) {
        while let field = try reader.next() { fields[field.number, default: []].append(field) }
    }

    private func last(_ number: Int) -> FieldReader.Field? { fields[number]?.last }

    func string(_ number: Int) throws(CodecError) -> String? { try last(number)?.string() }
    func strings(_ number: Int) throws(CodecError) -> [String] {
        var values: [String] = []
        for field in fields[number] ?? [] { values.append(try field.string()) }
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
