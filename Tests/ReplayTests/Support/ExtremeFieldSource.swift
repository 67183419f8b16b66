import Journal
@testable import SDKCore

/// A fact's fields as a record of it holds them, but every number, signed value, attempt, time,
/// task and switch number at one end of its type: what a hostile journal can put in any fact
/// (`HostileJournalTests.everyKindAtTheEnds`).
struct ExtremeFieldSource: FactFieldSource {
    var record: RecordFieldSource
    /// The low ends (0, `Int64.min`, `Int.min`) or the high ones (`UInt64.max`, `Int64.max`, `Int.max`).
    let high: Bool

    /// `fact` with each of its own numbers and times at the chosen end (composite values as
    /// they are); a fact of a kind this build does not know, as it is.
    static func fact(_ fact: Fact, high: Bool) throws -> Fact {
        let payload = FactCodec.payload(of: fact)
        guard let kind = FactKind(rawValue: FactCodec.kind(of: fact)) else { return fact }
        return try payload.withUnsafeBytes { bytes in
            var source = ExtremeFieldSource(record: RecordFieldSource(FieldReader(bytes)), high: high)
            return try Fact(kind, reading: &source)
        }
    }

    mutating func value<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value {
        if let extreme = identifier(Value.self) { return extreme }
        return try record.value(field)
    }
    mutating func optional<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value? {
        if let extreme = identifier(Value.self) { return extreme }
        return try record.optional(field)
    }
    mutating func values<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> [Value] {
        try record.values(field).map { identifier(Value.self) ?? $0 }
    }
    mutating func number(_ field: FactField) throws(CodecError) -> UInt64 { high ? .max : 0 }
    mutating func signed(_ field: FactField) throws(CodecError) -> Int64 { high ? .max : .min }
    mutating func attempt(_ field: FactField) throws(CodecError) -> Int { high ? .max : .min }
    mutating func time(_ field: FactField) throws(CodecError) -> JournalTime { JournalTime(microsecondsSince1970: try signed(field)) }
    mutating func text(_ field: FactField) throws(CodecError) -> String? { try record.text(field) }
    mutating func texts(_ field: FactField) throws(CodecError) -> [String] { try record.texts(field) }
    mutating func choice<Value: RawRepresentable<String>>(_ field: FactField) throws(CodecError) -> Value { try record.choice(field) }

    /// A task or switch number at the chosen end, when `type` is one; nil for any other value.
    private func identifier<Value>(_ type: Value.Type) -> Value? {
        let number: UInt64 = high ? .max : 0
        if type == TaskID.self { return TaskID(number) as? Value }
        if type == SwitchID.self { return SwitchID(number) as? Value }
        return nil
    }
}
