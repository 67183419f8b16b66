import Journal

/// How one field's value is written and read: its wire type and how the value maps to it.
/// A ``ValueField`` pairs it with the field's number, name and presence.
///
/// The codings write exactly what the hand-written `writer.unsigned`, `writer.string`,
/// `writer.message`, … calls write, and read as `field.unsigned()`, `field.string()`, … read.
struct FieldCoding<Value>: Sendable {
    /// Writes `value` as field `number`.
    let write: @Sendable (_ number: Int, _ value: Value, _ writer: inout FieldWriter) -> Void
    /// The value one field holds; a field of another wire type, or a malformed value, throws
    /// (naming the field's number and offset, as ``FieldReader/Field`` does).
    let decode: @Sendable (_ field: FieldReader.Field) throws(CodecError) -> Value

    /// A value written and read as another coding's value, converted both ways; `read` may
    /// reject a value it has no meaning for.
    func map<Other>(_ read: @escaping @Sendable (Value) throws(CodecError) -> Other,
                    _ written: @escaping @Sendable (Other) -> Value) -> FieldCoding<Other> {
        let write = self.write, decode = self.decode
        return FieldCoding<Other>(write: { number, value, writer in write(number, written(value), &writer) },
                                  decode: { (field) throws(CodecError) in try read(try decode(field)) })
    }
}

extension FieldCoding where Value == UInt64 {
    /// A varint.
    static var unsigned: Self { Self(write: { $2.unsigned($0, $1) }, decode: { (field) throws(CodecError) in try field.unsigned() }) }
}

extension FieldCoding where Value == Int64 {
    /// A zigzag varint.
    static var signed: Self { Self(write: { $2.signed($0, $1) }, decode: { (field) throws(CodecError) in try field.signed() }) }
}

extension FieldCoding where Value == Int {
    /// A zigzag varint that fits an `Int`.
    static var int: Self { Self(write: { $2.int($0, $1) }, decode: { (field) throws(CodecError) in try field.int() }) }
}

extension FieldCoding where Value == Bool {
    /// A varint, 0 or 1 (any non-zero reads as true).
    static var bool: Self { Self(write: { $2.bool($0, $1) }, decode: { (field) throws(CodecError) in try field.bool() }) }
}

extension FieldCoding where Value == Double {
    /// Eight bytes, little-endian (fixed64).
    static var double: Self { Self(write: { $2.double($0, $1) }, decode: { (field) throws(CodecError) in try field.double() }) }
}

extension FieldCoding where Value == String {
    /// UTF-8 bytes, length-delimited.
    static var string: Self { Self(write: { $2.string($0, $1) }, decode: { (field) throws(CodecError) in try field.string() }) }
}

extension FieldCoding where Value == [UInt8] {
    /// Bytes, length-delimited.
    static var bytes: Self {
        Self(write: { $2.bytes($0, $1) }, decode: { (field) throws(CodecError) in [UInt8](try field.bytes()) })
    }
}

extension FieldCoding where Value == JournalTime {
    /// A time as its microseconds since 1970, a zigzag varint in the field itself (not
    /// `JournalTime`'s own message).
    static var time: Self { FieldCoding<Int64>.signed.map(JournalTime.init(microsecondsSince1970:), \.microsecondsSince1970) }
}

extension FieldCoding where Value: FieldCodable & SendableMetatype {
    /// The value's own message, length-delimited.
    static var message: Self {
        Self(write: { $2.message($0, $1) }, decode: { (field) throws(CodecError) in try field.message(Value.self) })
    }
}

extension FieldCoding where Value == [String: DataValue] {
    /// A data object's message (``DataObject``: its JSON when that reads back exactly, else
    /// one entry per member).
    static var dataObject: Self { FieldCoding<DataObject>.message.map(\.members, DataObject.init) }
}

extension ValueField.Presence where Value == JournalTime {
    /// Always written; an absent time reads as 1970's first microsecond (the `0` a hand-written
    /// reader of the varint would give it).
    static var defaultedToZero: Self { .defaulted(JournalTime(microsecondsSince1970: 0)) }
}
