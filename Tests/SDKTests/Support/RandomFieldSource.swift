import Journal
@testable import SDKCore

/// Draws a fact's field values for ``Fact/init(_:reading:)`` in place of a record's: each by
/// its declared field (presence, text kind) and the type the fact holds there. A type is drawn
/// by its ``RandomlyDrawn`` conformance, or, an enumeration of fixed cases, as one of them;
/// another type throws, naming it and the field.
struct RandomFieldSource: FactFieldSource {
    var random: RandomFacts

    init(_ random: RandomFacts) {
        self.random = random
    }

    mutating func value<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value { try draw(field) }

    mutating func optional<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value? {
        random.bool() ? try draw(field) as Value : nil
    }

    mutating func values<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> [Value] {
        var values: [Value] = []
        for _ in 0..<random.int(0...4) { values.append(try draw(field)) }
        return values
    }

    mutating func number(_ field: FactField) throws(CodecError) -> UInt64 { random.number() }
    mutating func signed(_ field: FactField) throws(CodecError) -> Int64 { random.microseconds() }
    mutating func attempt(_ field: FactField) throws(CodecError) -> Int { random.int(1...9) }
    mutating func time(_ field: FactField) throws(CodecError) -> JournalTime { random.time() }

    mutating func text(_ field: FactField) throws(CodecError) -> String? {
        field.presence == .optional && random.bool() ? nil : random.text(field.text)
    }

    mutating func texts(_ field: FactField) throws(CodecError) -> [String] {
        (0..<random.int(0...3)).map { _ in random.text(field.text) }
    }

    mutating func choice<Value: RawRepresentable<String>>(_ field: FactField) throws(CodecError) -> Value { try draw(field) }

    private mutating func draw<Value>(_ field: FactField) throws(CodecError) -> Value {
        if let type = Value.self as? any RandomlyDrawn.Type, let value = type.draw(&random) as? Value {
            return value
        }
        if let type = Value.self as? any CaseIterable.Type, let value = random.anyCase(of: type) as? Value {
            return value
        }
        throw CodecError("field \(field.name) holds a \(Value.self), which nothing draws: make it RandomlyDrawn (Tests/SDKTests/Support/RandomlyDrawn.swift)",
                         offset: 0)
    }
}

extension RandomFacts {
    /// One of the cases of `type`.
    mutating func anyCase<Value: CaseIterable>(of type: Value.Type) -> Value {
        let cases = Array(Value.allCases)
        return cases[int(0...(cases.count - 1))]
    }
}
