/// One field of a value's wire layout, declared once (``ValueLayout``): its number, the name
/// decoding errors give it, how it is written and read (``FieldCoding``), and what an absent
/// field reads as. Both the value's encoding and its decoding follow from it.
///
/// A field is written as the layout lists it; read as the last field of its number (or every
/// field of it, for a repeated one); other numbers are skipped.
struct ValueField<Root, Value>: Sendable {
    /// What a message without the field reads as, and when the field is left out.
    struct Presence: Sendable {
        /// The value of an absent field, or the error naming it.
        fileprivate let absent: @Sendable (_ name: StaticString) throws(CodecError) -> Value
        /// Whether a value is left out of the message rather than written.
        fileprivate let isLeftOut: @Sendable (Value) -> Bool

        /// Always written; a message without it is damaged (`required field <name> is missing`).
        static var required: Self {
            Self(absent: { (name) throws(CodecError) in throw missing(name.description) }, isLeftOut: { _ in false })
        }

        /// Always written; a message without it throws `error` (say, an unknown variant rather
        /// than damage).
        static func required(else error: CodecError) -> Self {
            Self(absent: { (_) throws(CodecError) in throw error }, isLeftOut: { _ in false })
        }

        /// Always written; an absent field reads as `value`.
        static func defaulted(_ value: Value) -> Self where Value: Sendable {
            Self(absent: { _ in value }, isLeftOut: { _ in false })
        }
    }

    /// Its number in the value's message: part of the journal format, never reused.
    let number: Int
    /// The name a decoding error gives it (`required field <name> is missing`).
    let name: StaticString
    /// Writes the field of `root` (or nothing, for a left-out or absent value).
    let write: @Sendable (_ root: Root, _ writer: inout FieldWriter) -> Void
    /// The field's value in `fields`, or what its absence reads as.
    let read: @Sendable (_ fields: FieldsByNumber) throws(CodecError) -> Value

    /// A field holding one value, read as the last field of its number.
    init(_ number: Int, _ name: StaticString, _ value: @escaping @Sendable (Root) -> Value, _ coding: FieldCoding<Value>,
         _ presence: Presence) {
        self.number = number
        self.name = name
        let writeOne = coding.write, decodeOne = coding.decode
        self.write = { root, writer in
            let field = value(root)
            if !presence.isLeftOut(field) { writeOne(number, field, &writer) }
        }
        self.read = { (fields) throws(CodecError) in
            guard let field = fields.last(number) else { return try presence.absent(name) }
            return try decodeOne(field)
        }
    }

    /// A field that may be absent (nil): written only when the value is not nil.
    init<Wrapped>(optional number: Int, _ name: StaticString, _ value: @escaping @Sendable (Root) -> Wrapped?,
                  _ coding: FieldCoding<Wrapped>) where Value == Wrapped? {
        self.number = number
        self.name = name
        let writeOne = coding.write, decodeOne = coding.decode
        self.write = { root, writer in if let field = value(root) { writeOne(number, field, &writer) } }
        self.read = { (fields) throws(CodecError) in
            guard let field = fields.last(number) else { return nil }
            return try decodeOne(field)
        }
    }

    /// A field holding one value of an enum's variant (``ValueVariant``), whose associated value
    /// it is.
    init(_ number: Int, _ name: StaticString, _ coding: FieldCoding<Value>, _ presence: Presence) where Root == Value {
        self.init(number, name, { $0 }, coding, presence)
    }

    /// A variant's associated value that may be absent (nil): written only when not nil.
    init<Wrapped>(optional number: Int, _ name: StaticString, _ coding: FieldCoding<Wrapped>) where Value == Wrapped?, Root == Value {
        self.init(optional: number, name, { $0 }, coding)
    }

    /// A repeated field: one field per element, in order; absent means none.
    init(repeated number: Int, _ name: StaticString, _ value: @escaping @Sendable (Root) -> Value,
         _ coding: FieldCoding<Value.Element>) where Value: RepeatedFieldValue {
        self.number = number
        self.name = name
        let writeOne = coding.write, decodeOne = coding.decode
        self.write = { root, writer in for element in value(root) { writeOne(number, element, &writer) } }
        self.read = { (fields) throws(CodecError) in
            var elements = Value()
            try fields.each(number) { (field) throws(CodecError) in elements.append(try decodeOne(field)) }
            return elements
        }
    }
}

extension ValueField.Presence where Value: Equatable & Sendable {
    /// Written only when the value is not `value`; an absent field reads as `value` (a field
    /// added to the format later, whose absence in older journals means its usual value).
    static func leftOut(when value: Value) -> Self {
        Self(absent: { _ in value }, isLeftOut: { $0 == value })
    }
}
