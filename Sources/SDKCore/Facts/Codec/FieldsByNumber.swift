/// All fields of a message, looked up by number (repeated ones kept in order; for a field
/// given more than once where one is expected, the last counts).
///
/// Keeps no copy of the fields: the message is read through once up front (so malformed bytes
/// throw where they did), noting which numbers below 64 it holds and which of those more than
/// once; each look-up reads it again, not at all for a number it does not hold, and only up to
/// the field for a number it holds once. Messages have a dozen fields at most, so a scan is
/// cheaper than storing, or hashing, every field of every record decoded.
struct FieldsByNumber {
    private let reader: FieldReader
    private let numbers: Numbers

    init(_ reader: inout FieldReader) throws(CodecError) {
        self.reader = reader
        var numbers = Numbers()
        while let field = try reader.next() { numbers.note(field.number) }
        self.numbers = numbers
    }

    /// The fields of a message `reader` (at its start) was already read through without error,
    /// with each field's number given to `numbers` on the way.
    init(readThrough reader: FieldReader, numbers: Numbers) {
        self.reader = reader
        self.numbers = numbers
    }

    /// The field numbers below 64 a read-through saw, and which of them more than once.
    struct Numbers {
        /// Bit `n`: the message holds a field numbered `n`.
        fileprivate var present: UInt64 = 0
        /// Bit `n`: the message holds more than one field numbered `n`.
        fileprivate var repeated: UInt64 = 0

        mutating func note(_ number: Int) {
            guard number < 64 else { return }
            let bit: UInt64 = 1 << UInt64(number)
            repeated |= present & bit
            present |= bit
        }
    }

    /// The last field numbered `number`.
    func last(_ number: Int) -> FieldReader.Field? {
        var stopsAtFirst = false
        if number >= 0, number < 64 {
            let bit: UInt64 = 1 << UInt64(number)
            guard numbers.present & bit != 0 else { return nil }
            stopsAtFirst = numbers.repeated & bit == 0
        }
        var scan = reader
        var found: FieldReader.Field?
        // The message was read through without error at init: it cannot throw now.
        while let field = (try? scan.next()) ?? nil {
            guard field.number == number else { continue }
            if stopsAtFirst { return field }
            found = field
        }
        return found
    }

    /// Every field numbered `number`, in order.
    func each(_ number: Int, _ handle: (FieldReader.Field) throws(CodecError) -> Void) throws(CodecError) {
        if number >= 0, number < 64, numbers.present & (1 << UInt64(number)) == 0 { return }
        var scan = reader
        while let field = (try? scan.next()) ?? nil { if field.number == number { try handle(field) } }
    }

    func string(_ number: Int) throws(CodecError) -> String? { try last(number)?.string() }
    func strings(_ number: Int) throws(CodecError) -> [String] {
        var values: [String] = []
        try each(number) { (field) throws(CodecError) in values.append(try field.string()) }
        return values
    }
    func messages<Value: FieldCodable>(_ number: Int, _ type: Value.Type = Value.self) throws(CodecError) -> [Value] {
        var values: [Value] = []
        try each(number) { (field) throws(CodecError) in values.append(try field.message(Value.self)) }
        return values
    }
    func unsigned(_ number: Int) throws(CodecError) -> UInt64? { try last(number)?.unsigned() }
    func signed(_ number: Int) throws(CodecError) -> Int64? { try last(number)?.signed() }
    func int(_ number: Int) throws(CodecError) -> Int? { try last(number)?.int() }
    func bool(_ number: Int) throws(CodecError) -> Bool { try last(number)?.bool() ?? false }
    func message<Value: FieldCodable>(_ number: Int, _ type: Value.Type = Value.self) throws(CodecError) -> Value? {
        try last(number)?.message(Value.self)
    }
    /// The last message numbered `number`; its absence is an error naming the field (the name
    /// is made only then).
    func required<Value: FieldCodable>(_ number: Int, _ name: @autoclosure () -> String, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let value: Value = try message(number) else { throw missing(name()) }
        return value
    }
}
