/// One variant of an enum value's wire layout, declared once: its tag (field 1), its
/// associated values' fields (``ValueField``, never numbered 1) in the order they are written,
/// and the case they make. The enum's encoding switches over the value (a new case is a
/// compile error until it is given a variant) and writes through ``write(_:to:)``; its
/// decoding finds the variant by tag in its ``VariantLayout``.
struct ValueVariant<Root, each Value>: Sendable {
    let tag: UInt64
    private let fields: (repeat ValueField<each Value, each Value>)
    private let make: @Sendable (repeat each Value) -> Root

    /// `make`: the case from its associated values, in the order `fields` lists them.
    init(_ tag: UInt64, _ fields: repeat ValueField<each Value, each Value>, make: @escaping @Sendable (repeat each Value) -> Root) {
        var numbers: Set<Int> = [1]
        for field in repeat each fields {
            precondition(numbers.insert(field.number).inserted, "\(Root.self) variant \(tag): field \(field.number) is the tag's or declared twice")
        }
        self.tag = tag
        self.fields = (repeat each fields)
        self.make = make
    }

    /// Writes the tag, then each associated value as its field.
    func write(_ values: repeat each Value, to writer: inout FieldWriter) {
        writer.unsigned(1, tag)
        for (field, value) in repeat (each fields, each values) { field.write(value, &writer) }
    }

    /// The variant's tag and how its case is read from a message's fields.
    var reader: VariantLayout<Root>.Reader {
        let fields = self.fields, make = self.make
        return VariantLayout<Root>.Reader(tag: tag) { (message) throws(CodecError) in make(repeat try (each fields).read(message)) }
    }
}
