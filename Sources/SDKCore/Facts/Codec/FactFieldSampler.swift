import Journal

/// Gives the values of a fact's declared fields by the type the fact holds in each, so that a
/// fact of any declared kind can be made without a record: ``Fact/init(_:sampling:)`` reads it
/// as the decoder reads a record (``Fact/init(_:reading:)``), asking the sampler instead. The
/// fuzzers' samples are made so; a new kind has one as soon as it is declared.
package protocol FactFieldSampler {
    /// A value of `type` for `field`: a number field asks for `UInt64`, `Int64` or `Int`, a time
    /// for `JournalTime`, a text for `String` (each element's, when repeated), an enumeration of
    /// raw texts or a composite value for its own type. Nil: the sampler has no value of it.
    mutating func sample<Value>(_ type: Value.Type, for field: FactField) -> Value?
    /// Whether an optional field is present.
    mutating func isPresent(_ field: FactField) -> Bool
    /// How many values a repeated field holds.
    mutating func count(of field: FactField) -> Int
}

extension Fact {
    /// The fact of `kind` with the values `sampler` gives for its declaration's fields; throws
    /// when the sampler has no value of a type the kind holds, naming the type and the field.
    package init(_ kind: FactKind, sampling sampler: inout some FactFieldSampler) throws(CodecError) {
        var source = SampledFieldSource(sampler)
        defer { sampler = source.sampler }
        try self.init(kind, reading: &source)
    }
}

/// A ``FactFieldSource`` that asks a ``FactFieldSampler``.
private struct SampledFieldSource<Sampler: FactFieldSampler>: FactFieldSource {
    var sampler: Sampler

    init(_ sampler: Sampler) {
        self.sampler = sampler
    }

    private mutating func one<Value>(_ field: FactField, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let value = sampler.sample(Value.self, for: field) else {
            throw CodecError("no sample of \(Value.self) for field \(field.name)", offset: 0)
        }
        return value
    }

    private mutating func many<Value>(_ field: FactField, _ type: Value.Type = Value.self) throws(CodecError) -> [Value] {
        var values: [Value] = []
        for _ in 0..<sampler.count(of: field) { values.append(try one(field)) }
        return values
    }

    mutating func value<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value { try one(field) }
    mutating func optional<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value? {
        sampler.isPresent(field) ? try one(field) as Value : nil
    }
    mutating func values<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> [Value] { try many(field) }
    mutating func number(_ field: FactField) throws(CodecError) -> UInt64 { try one(field) }
    mutating func signed(_ field: FactField) throws(CodecError) -> Int64 { try one(field) }
    mutating func attempt(_ field: FactField) throws(CodecError) -> Int { try one(field) }
    mutating func time(_ field: FactField) throws(CodecError) -> JournalTime { try one(field) }
    mutating func text(_ field: FactField) throws(CodecError) -> String? {
        field.presence == .optional && !sampler.isPresent(field) ? nil : try one(field) as String
    }
    mutating func texts(_ field: FactField) throws(CodecError) -> [String] { try many(field) }
    mutating func choice<Value: RawRepresentable<String>>(_ field: FactField) throws(CodecError) -> Value { try one(field) }
}
