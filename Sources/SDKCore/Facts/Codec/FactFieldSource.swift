import Journal

/// Where ``Fact/init(_:reading:)`` takes a fact's field values from, each asked for by its
/// declared field: a journal record's payload (``RecordFieldSource``), or values already in
/// hand (``ValueFieldSource``). Absent `defaulted` numbers read as 0.
protocol FactFieldSource {
    /// A required value (or, for a field numbered 0, the whole payload as the value's message).
    mutating func value<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value
    mutating func optional<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value?
    mutating func values<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> [Value]
    mutating func number(_ field: FactField) throws(CodecError) -> UInt64
    mutating func signed(_ field: FactField) throws(CodecError) -> Int64
    mutating func attempt(_ field: FactField) throws(CodecError) -> Int
    mutating func time(_ field: FactField) throws(CodecError) -> JournalTime
    mutating func text(_ field: FactField) throws(CodecError) -> String?
    mutating func texts(_ field: FactField) throws(CodecError) -> [String]
    /// One of an enumeration's raw texts; another text is a variant this build does not know.
    mutating func choice<Value: RawRepresentable<String>>(_ field: FactField) throws(CodecError) -> Value
}

/// The fields of a journal record's payload, read in place.
struct RecordFieldSource: FactFieldSource {
    private var reader: FieldReader
    /// The payload's fields by number, read through on the first field asked for.
    private var byNumber: FieldsByNumber?

    init(_ reader: FieldReader) {
        self.reader = reader
    }

    private mutating func fields() throws(CodecError) -> FieldsByNumber {
        if let byNumber { return byNumber }
        var scan = reader
        let fields = try FieldsByNumber(&scan)
        byNumber = fields
        return fields
    }

    mutating func value<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value {
        if field.number == 0 { return try Value(from: &reader) }
        return try fields().required(field.number, field.name)
    }

    mutating func optional<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value? {
        try fields().message(field.number)
    }

    mutating func values<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> [Value] {
        try fields().messages(field.number)
    }

    mutating func number(_ field: FactField) throws(CodecError) -> UInt64 { try fields().unsigned(field.number) ?? 0 }
    mutating func signed(_ field: FactField) throws(CodecError) -> Int64 { try fields().signed(field.number) ?? 0 }
    mutating func attempt(_ field: FactField) throws(CodecError) -> Int { try fields().int(field.number) ?? 0 }
    mutating func time(_ field: FactField) throws(CodecError) -> JournalTime {
        JournalTime(microsecondsSince1970: try signed(field))
    }
    mutating func text(_ field: FactField) throws(CodecError) -> String? { try fields().string(field.number) }
    mutating func texts(_ field: FactField) throws(CodecError) -> [String] { try fields().strings(field.number) }

    mutating func choice<Value: RawRepresentable<String>>(_ field: FactField) throws(CodecError) -> Value {
        guard let value = Value(rawValue: try text(field) ?? "") else {
            throw CodecError("unknown \(field.name)", offset: 0, unknownVariant: true)
        }
        return value
    }
}

/// Field values already in hand, in the order of a declaration's fields (a fact taken apart
/// with ``Fact/forEachField(_:)`` and changed: redaction).
struct ValueFieldSource: FactFieldSource {
    private let values: UnsafeBufferPointer<FactFieldValue>
    private let fields: [FactField]

    /// `values` must stay valid while the source is read.
    init(_ values: UnsafeBufferPointer<FactFieldValue>, of declaration: FactDeclaration) {
        self.values = values
        self.fields = declaration.fields
    }

    private func typed<Value>(_ field: FactField, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let index = fields.firstIndex(where: { $0.number == field.number }), index < values.count,
              let value = values[index].typed(Value.self) else {
            throw CodecError("field \(field.name) is missing or has another type", offset: 0)
        }
        return value
    }

    mutating func value<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value { try typed(field) }
    mutating func optional<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> Value? { try typed(field) }
    mutating func values<Value: FieldCodable>(_ field: FactField) throws(CodecError) -> [Value] { try typed(field) }
    mutating func number(_ field: FactField) throws(CodecError) -> UInt64 { try typed(field) }
    mutating func signed(_ field: FactField) throws(CodecError) -> Int64 { try typed(field) }
    mutating func attempt(_ field: FactField) throws(CodecError) -> Int { try typed(field) }
    mutating func time(_ field: FactField) throws(CodecError) -> JournalTime { try typed(field) }
    mutating func text(_ field: FactField) throws(CodecError) -> String? { try typed(field) }
    mutating func texts(_ field: FactField) throws(CodecError) -> [String] { try typed(field) }
    mutating func choice<Value: RawRepresentable<String>>(_ field: FactField) throws(CodecError) -> Value { try typed(field) }
}

extension FactFieldValue {
    /// The value as the fact holds it, if it is a `Value` (a landing result as the number a
    /// record holds). Each case casts its concrete type: specialized for a `Value`, the casts
    /// are decided when compiling, and nothing is boxed.
    fileprivate func typed<Value>(_ type: Value.Type) -> Value? {
        switch self {
        case .number(let value): value as? Value
        case .attempt(let value): value as? Value
        case .microseconds(let value): value as? Value
        case .time(let value): value as? Value
        case .text(let value): value as? Value
        case .texts(let value): value as? Value
        case .call(let value): value as? Value
        case .calls(let value): value as? Value
        case .task(let value): value as? Value
        case .switchID(let value): value as? Value
        case .fingerprint(let value), .executedOn(let value): value as? Value
        case .project(let value): value as? Value
        case .gateDecision(let value): value as? Value
        case .callOutcome(let value): value as? Value
        case .taskOutcome(let value): value as? Value
        case .deliveryTask(let value): value as? Value
        case .receivedCall(let value): value as? Value
        case .publicCall(let value): value as? Value
        case .timer(let value): value as? Value
        case .retryReason(let value): value as? Value
        case .routing(let value): value as? Value
        case .teardownStep(let value): value as? Value
        case .stepOutcome(let value): value as? Value
        case .landing(let value): value.landingCode as? Value
        case .moduleSignal(let value): value as? Value
        case .durabilityWait(let value): value as? Value
        case .attribution(let value): value as? Value
        case .batchedEvent(let value): value as? Value
        case .messageKind(let value): value as? Value
        case .storageScope(let value): value as? Value
        case .backgroundTaskEnd(let value): value as? Value
        case .engineStart(let value): value as? Value
        case .transportCompletion(let value): value as? Value
        case .durabilityConfirmation(let value): value as? Value
        case .hookCompletion(let value): value as? Value
        case .authReceipt(let value): value as? Value
        case .linkResolution(let value): value as? Value
        case .erasure(let value): value as? Value
        case .journalGap(let value): value as? Value
        }
    }
}

extension Fact {
    /// The fact `declaration` declares, with `values` in its fields' order and shapes; nil
    /// when they do not fit it.
    package init?(_ declaration: FactDeclaration, values: [FactFieldValue]) {
        guard let fact = values.withUnsafeBufferPointer({ Fact(declaration, valuesIn: $0) }) else { return nil }
        self = fact
    }

    private init?(_ declaration: FactDeclaration, valuesIn values: UnsafeBufferPointer<FactFieldValue>) {
        var source = ValueFieldSource(values, of: declaration)
        guard let fact = try? Fact(declaration.kind, reading: &source) else { return nil }
        self = fact
    }

    /// The same fact with each field's value replaced by `transform(field, value)` where it
    /// gives one (nil: the value is kept); values keep their shapes (redaction). A fact none of
    /// whose values changed, or of a kind this build does not know, is returned as it is.
    package func mapFields(_ transform: (FactField, FactFieldValue) -> FactFieldValue?) -> Fact {
        guard let declaration else { return self }
        // The values are gathered on the stack: most facts a redaction walks keep every value.
        return withUnsafeTemporaryAllocation(of: FactFieldValue.self, capacity: declaration.fields.count) { buffer in
            var count = 0
            var changed = false
            forEachField { field, value in
                if let mapped = transform(field, value) {
                    (buffer.baseAddress! + count).initialize(to: mapped)
                    changed = true
                } else {
                    (buffer.baseAddress! + count).initialize(to: value)
                }
                count += 1
            }
            defer { buffer.baseAddress!.deinitialize(count: count) }
            guard changed else { return self }
            guard let mapped = Fact(declaration, valuesIn: UnsafeBufferPointer(rebasing: buffer[..<count])) else {
                preconditionFailure("\(declaration.kind): a transform changed a field's shape")
            }
            return mapped
        }
    }
}

extension FieldWriter {
    /// Writes one declared field of a fact.
    mutating func write(_ value: FactFieldValue, as field: FactField) {
        let number = field.number
        switch value {
        case .number(let value): unsigned(number, value)
        case .attempt(let value): int(number, value)
        case .microseconds(let value): signed(number, value)
        case .time(let value): signed(number, value.microsecondsSince1970)
        case .text(let value): string(number, value)
        case .texts(let values): strings(number, values)
        case .call(let value): message(number, value)
        case .calls(let values): messages(number, values)
        case .task(let value): message(number, value)
        case .fingerprint(let value), .executedOn(let value): message(number, value)
        case .landing(let result): unsigned(number, result.landingCode)
        case .messageKind(let kind): string(number, kind.rawValue)
        case .storageScope(let scope): string(number, scope.rawValue)
        case .backgroundTaskEnd(let reason): string(number, reason.rawValue)
        case .attribution(let value): message(number, value)
        case .batchedEvent(let event): batchedEvent(number, event)
        case .switchID(let value): payloadOrMessage(number, value)
        case .project(let value): payloadOrMessage(number, value)
        case .gateDecision(let value): payloadOrMessage(number, value)
        case .callOutcome(let value): payloadOrMessage(number, value)
        case .taskOutcome(let value): payloadOrMessage(number, value)
        case .deliveryTask(let value): payloadOrMessage(number, value)
        case .receivedCall(let value): payloadOrMessage(number, value)
        case .publicCall(let value): payloadOrMessage(number, value)
        case .timer(let value): payloadOrMessage(number, value)
        case .retryReason(let value): payloadOrMessage(number, value)
        case .routing(let value): payloadOrMessage(number, value)
        case .teardownStep(let value): payloadOrMessage(number, value)
        case .stepOutcome(let value): payloadOrMessage(number, value)
        case .moduleSignal(let value): payloadOrMessage(number, value)
        case .durabilityWait(let value): payloadOrMessage(number, value)
        case .engineStart(let value): payloadOrMessage(number, value)
        case .transportCompletion(let value): payloadOrMessage(number, value)
        case .durabilityConfirmation(let value): payloadOrMessage(number, value)
        case .hookCompletion(let value): payloadOrMessage(number, value)
        case .authReceipt(let value): payloadOrMessage(number, value)
        case .linkResolution(let value): payloadOrMessage(number, value)
        case .erasure(let value): payloadOrMessage(number, value)
        case .journalGap(let value): payloadOrMessage(number, value)
        }
    }

    /// A field numbered 0 is the whole payload: the value's own fields, written in place.
    private mutating func payloadOrMessage(_ number: Int, _ value: some FieldCodable) {
        if number == 0 { value.encode(to: &self) } else { message(number, value) }
    }
}
