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
    private let values: [FactFieldValue]
    private let fields: [FactField]

    init(_ values: [FactFieldValue], of declaration: FactDeclaration) {
        self.values = values
        self.fields = declaration.fields
    }

    private func stored(_ field: FactField) throws(CodecError) -> Any? {
        guard let index = fields.firstIndex(where: { $0.number == field.number }), index < values.count else {
            throw missing(field.name)
        }
        return values[index].stored
    }

    private func typed<Value>(_ field: FactField, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let value = try stored(field) as? Value else { throw CodecError("field \(field.name) has another type", offset: 0) }
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
    /// The value as the fact holds it (a landing result as the number a record holds).
    fileprivate var stored: Any? {
        switch self {
        case .number(let value): value
        case .attempt(let value): value
        case .microseconds(let value): value
        case .time(let value): value
        case .text(let value): value as Any
        case .texts(let value): value
        case .call(let value): value
        case .calls(let value): value
        case .task(let value): value
        case .switchID(let value): value
        case .fingerprint(let value), .executedOn(let value): value as Any
        case .project(let value): value
        case .gateDecision(let value): value
        case .callOutcome(let value): value
        case .taskOutcome(let value): value
        case .deliveryTask(let value): value
        case .receivedCall(let value): value
        case .publicCall(let value): value
        case .timer(let value): value
        case .retryReason(let value): value
        case .routing(let value): value
        case .teardownStep(let value): value
        case .stepOutcome(let value): value
        case .landing(let value): value.landingCode
        case .moduleEvent(let value): value
        case .durabilityWait(let value): value
        case .attribution(let value): value as Any
        case .batchedEvent(let value): value
        case .messageKind(let value): value
        case .storageScope(let value): value
        case .engineStart(let value): value
        case .transportCompletion(let value): value
        case .durabilityConfirmation(let value): value
        case .hookCompletion(let value): value
        case .authReceipt(let value): value
        case .linkResolution(let value): value
        case .erasure(let value): value
        case .journalGap(let value): value
        }
    }
}

extension Fact {
    /// The fact `declaration` declares, with `values` in its fields' order and shapes; nil
    /// when they do not fit it.
    package init?(_ declaration: FactDeclaration, values: [FactFieldValue]) {
        var source = ValueFieldSource(values, of: declaration)
        guard let fact = try? Fact(declaration.kind, reading: &source) else { return nil }
        self = fact
    }

    /// The same fact with each field's value replaced by `transform(field, value)` (values keep
    /// their shapes: redaction). An unknown kind is returned as it is.
    package func mapFields(_ transform: (FactField, FactFieldValue) -> FactFieldValue) -> Fact {
        guard let declaration else { return self }
        var values: [FactFieldValue] = []
        values.reserveCapacity(declaration.fields.count)
        forEachField { field, value in values.append(transform(field, value)) }
        guard let mapped = Fact(declaration, values: values) else {
            preconditionFailure("\(declaration.kind): a transform changed a field's shape")
        }
        return mapped
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
        case .attribution(let value): message(number, value)
        case .batchedEvent(let event):
            if event.body.isEmpty { bodilessEvent(number, call: event.call) } else { message(number, event) }
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
        case .moduleEvent(let value): payloadOrMessage(number, value)
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
