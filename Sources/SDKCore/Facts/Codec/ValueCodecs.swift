import Foundation
import Journal

// Tagged-field encodings of the values facts carry. Field numbers are part of the journal
// format: never reuse or renumber one; add new fields with new numbers.

// Hand-written: in nearly every record; one field read in one pass (a layout scans the message twice, through closures).
extension ProjectFingerprint: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        withBytes { writer.bytes(1, $0) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var raw: UnsafeRawBufferPointer?
        while let field = try reader.next() { if field.number == 1 { raw = try field.bytes() } }
        guard let raw, let value = ProjectFingerprint(bytes: raw) else { throw missing("fingerprint") }
        self = value
    }
}

// Hand-written: in nearly every record; one field read in one pass (a layout scans the message twice, through closures).
extension CallID: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        withBytes { writer.bytes(1, $0) }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var raw = UnsafeRawBufferPointer(start: nil, count: 0)
        while let field = try reader.next() { if field.number == 1 { raw = try field.bytes() } }
        guard let id = CallID(bytes: raw) else { throw missing("call id") }
        self = id
    }
}

extension RetryRules: DeclaredFieldCodable {
    /// An absent rule reads as the default rules' value.
    static let layout = ValueLayout(
        ValueField(1, "maxAttempts", \RetryRules.maxAttempts, .int, .defaulted(RetryRules().maxAttempts)),
        ValueField(2, "baseDelayMilliseconds", \RetryRules.baseDelayMilliseconds, .signed, .defaulted(RetryRules().baseDelayMilliseconds)),
        ValueField(3, "maxDelayMilliseconds", \RetryRules.maxDelayMilliseconds, .signed, .defaulted(RetryRules().maxDelayMilliseconds)),
        ValueField(4, "jwtRefreshBudget", \RetryRules.jwtRefreshBudget, .int, .defaulted(RetryRules().jwtRefreshBudget)),
        make: { RetryRules(maxAttempts: $0, baseDelayMilliseconds: $1, maxDelayMilliseconds: $2, jwtRefreshBudget: $3) })
}

extension ProjectRef: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "project fingerprint", \ProjectRef.fingerprint, .message, .required),
        ValueField(2, "region", \ProjectRef.region, .string, .defaulted("")),
        ValueField(3, "endpoint", \ProjectRef.endpoint, .string, .defaulted("")),
        ValueField(4, "usesJWT", \ProjectRef.usesJWT, .bool, .defaulted(false)),
        ValueField(5, "retry", \ProjectRef.retry, .message, .defaulted(RetryRules())),
        ValueField(optional: 6, "label", \ProjectRef.label, .string),
        make: ProjectRef.init(fingerprint:region:endpoint:usesJWT:retry:label:))
}

/// A `[String: DataValue]` as a message: one entry per key, keys sorted.
// Hand-written: JSON or entries, merged, sized before the first insert; no layout field says that.
struct DataObject: FieldCodable {
    var members: [String: DataValue]

    init(_ members: [String: DataValue]) {
        self.members = members
    }

    /// Since format 1.3 the object's JSON (field 2) when it reads back exactly; else, and
    /// always before, one entry per member (field 1, repeated), in key order. The entries of
    /// an object that falls back never try JSON for the objects inside them.
    func encode(to writer: inout FieldWriter) {
        if writer.dataJSON(2, members) { return }
        let writesJSON = writer.writesDataObjectsAsJSON
        writer.writesDataObjectsAsJSON = false
        DataValue.forEachMemberInKeyOrder(of: members) { key, value in
            writer.message(1, DataEntry(key: key, value: value))
        }
        writer.writesDataObjectsAsJSON = writesJSON
    }

    /// Reads entries (field 1) and JSON (field 2, ``DataValue/members(ofJSON:baseOffset:)``); a writer writes one or
    /// the other, a reader takes both, later members replacing earlier ones of the same key.
    init(from reader: inout FieldReader) throws(CodecError) {
        guard reader.readsDataValues else {
            members = [:]
            return
        }
        // Sized for its entries before the first is inserted (counted over the same bytes), so
        // that inserting never grows it; damaged bytes stop the count and throw below.
        var counter = reader
        var entries = 0
        do {
            while let field = try counter.next() {
                if field.number == 1 { entries += 1 }
            }
        } catch {}
        members = Dictionary(minimumCapacity: entries)
        while let field = try reader.next() {
            switch field.number {
            case 1:
                let entry: DataEntry = try field.message()
                members[entry.key] = entry.value
            case 2:
                let json = try DataValue.members(ofJSON: try field.bytes(), baseOffset: field.offset)
                if members.isEmpty { members = json } else { members.merge(json) { _, later in later } }
            default:
                break
            }
        }
    }
}

// Hand-written: one per data field of every call in a journal older than format 1.3, read in one pass.
struct DataEntry: FieldCodable {
    var key: String
    var value: DataValue

    func encode(to writer: inout FieldWriter) {
        writer.string(1, key)
        writer.message(2, value)
    }

    init(key: String, value: DataValue) {
        self.key = key
        self.value = value
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var key: String?
        var value: DataValue = .null
        while let field = try reader.next() {
            switch field.number {
            case 1: key = try field.string()
            case 2: value = try field.message()
            default: break
            }
        }
        guard let key else { throw missing("data key") }
        self.init(key: key, value: value)
    }
}

// Hand-written: the field present is the case (no tag), and an array is flagged apart from its elements.
extension DataValue: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        switch self {
        case .string(let text): writer.string(1, text)
        case .integer(let value): writer.signed(2, value)
        case .number(let value): writer.double(3, value)
        case .bool(let value): writer.bool(4, value)
        case .null: writer.bool(5, true)
        case .array(let elements):
            writer.bool(6, true)
            writer.messages(7, elements)
        case .object(let members): writer.message(8, DataObject(members))
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        var result: DataValue = .null
        var elements: [DataValue] = []
        var isArray = false
        while let field = try reader.next() {
            switch field.number {
            case 1: result = .string(try field.string())
            case 2: result = .integer(try field.signed())
            case 3: result = .number(try field.double())
            case 4: result = .bool(try field.bool())
            case 5: result = .null
            case 6: isArray = true
            case 7: elements.append(try field.message())
            case 8: result = .object((try field.message() as DataObject).members)
            default: break
            }
        }
        self = isArray ? .array(elements) : result
    }
}

extension CommerceItem: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "id", \CommerceItem.id, .string, .defaulted("")),
        ValueField(2, "name", \CommerceItem.name, .string, .defaulted("")),
        ValueField(3, "price", \CommerceItem.price, .double, .defaulted(0)),
        ValueField(4, "quantity", \CommerceItem.quantity, .int, .defaulted(0)),
        ValueField(optional: 5, "sku", \CommerceItem.sku, .string),
        ValueField(optional: 6, "dataFields", \CommerceItem.dataFields, .dataObject),
        make: CommerceItem.init(id:name:price:quantity:sku:dataFields:))
}

/// A list of commerce items as a message.
struct CommerceItems: DeclaredFieldCodable {
    var items: [CommerceItem]

    init(_ items: [CommerceItem]) {
        self.items = items
    }

    static let layout = ValueLayout(ValueField(repeated: 1, "items", \CommerceItems.items, .message), make: { CommerceItems($0) })
}

extension PushOpen: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(optional: 1, "campaignID", \PushOpen.campaignID, .signed),
        ValueField(optional: 2, "templateID", \PushOpen.templateID, .signed),
        ValueField(3, "messageID", \PushOpen.messageID, .string, .defaulted("")),
        ValueField(4, "appAlreadyRunning", \PushOpen.appAlreadyRunning, .bool, .defaulted(false)),
        ValueField(optional: 5, "dataFields", \PushOpen.dataFields, .dataObject),
        make: PushOpen.init(campaignID:templateID:messageID:appAlreadyRunning:dataFields:))
}

extension AttributionInfo: DeclaredFieldCodable {
    static let layout = ValueLayout(
        ValueField(1, "campaignID", \AttributionInfo.campaignID, .signed, .defaulted(0)),
        ValueField(2, "templateID", \AttributionInfo.templateID, .signed, .defaulted(0)),
        ValueField(3, "messageID", \AttributionInfo.messageID, .string, .defaulted("")),
        make: AttributionInfo.init(campaignID:templateID:messageID:))
}

// Hand-written: in nearly every record; one field read in one pass (a layout scans the message twice, through closures).
extension TaskID: FieldCodable {
    func encode(to writer: inout FieldWriter) { writer.unsigned(1, number) }

    init(from reader: inout FieldReader) throws(CodecError) {
        var number: UInt64 = 0
        while let field = try reader.next() { if field.number == 1 { number = try field.unsigned() } }
        self.init(number)
    }
}

extension SwitchID: DeclaredFieldCodable {
    static let layout = ValueLayout(ValueField(1, "number", \SwitchID.number, .unsigned, .defaulted(0)), make: SwitchID.init)
}

/// Reads the variant tag (field 1) of an enum message, then its other fields (looked up by
/// number as in ``FieldsByNumber``: the message is read again per look-up, nothing is stored).
struct VariantFields {
    var tag: UInt64?
    /// The message's fields (read for any number but 1, the tag).
    let others: FieldsByNumber

    init(_ reader: inout FieldReader) throws(CodecError) {
        let start = reader
        var numbers = FieldsByNumber.Numbers()
        while let field = try reader.next() {
            if field.number == 1 { tag = try field.unsigned() }
            numbers.note(field.number)
        }
        others = FieldsByNumber(readThrough: start, numbers: numbers)
    }

    func unknown(_ type: String) -> CodecError {
        CodecError("unknown \(type) variant \(tag.map(String.init) ?? "none")", offset: 0, unknownVariant: true)
    }

    /// The last field numbered `number` (never the tag).
    private func field(_ number: Int) -> FieldReader.Field? { number == 1 ? nil : others.last(number) }

    func string(_ number: Int) throws(CodecError) -> String? { try field(number)?.string() }
    func requiredString(_ number: Int, _ name: String) throws(CodecError) -> String {
        guard let value = try string(number) else { throw missing(name) }
        return value
    }
    func signed(_ number: Int) throws(CodecError) -> Int64? { try field(number)?.signed() }
    func unsigned(_ number: Int) throws(CodecError) -> UInt64? { try field(number)?.unsigned() }
    func int(_ number: Int) throws(CodecError) -> Int? { try field(number)?.int() }
    func bool(_ number: Int) throws(CodecError) -> Bool { try field(number)?.bool() ?? false }
    func double(_ number: Int) throws(CodecError) -> Double? { try field(number)?.double() }
    func message<Value: FieldCodable>(_ number: Int, _ type: Value.Type = Value.self) throws(CodecError) -> Value? {
        guard let field = field(number) else { return nil }
        return try field.message(Value.self)
    }
    func requiredMessage<Value: FieldCodable>(_ number: Int, _ name: String, _ type: Value.Type = Value.self) throws(CodecError) -> Value {
        guard let value: Value = try message(number) else { throw missing(name) }
        return value
    }
    func strings(_ number: Int) throws(CodecError) -> [String] {
        guard number != 1 else { return [] }
        return try others.strings(number)
    }
    func messages<Value: FieldCodable>(_ number: Int, _ type: Value.Type = Value.self) throws(CodecError) -> [Value] {
        var values: [Value] = []
        guard number != 1 else { return values }
        try others.each(number) { (field) throws(CodecError) in values.append(try field.message(Value.self)) }
        return values
    }
}
