/// A value's wire layout, declared once: its fields (``ValueField``) in the order they are
/// written, and how the value is made from their values. The value's encoding and decoding both
/// follow from it (``DeclaredFieldCodable``), so a field's number, name, coding and default are
/// stated in one place.
///
/// Decoding reads the message through once (malformed bytes throw there), then reads each
/// field, in the order declared, as the last field of its number (every one, for a repeated
/// field): the first field that fails, or the first required field that is absent, in that
/// order, is the error.
struct ValueLayout<Root, each Value>: Sendable {
    private let fields: (repeat ValueField<Root, each Value>)
    private let make: @Sendable (repeat each Value) -> Root

    /// `make`: the value from its fields' values, in the order `fields` lists them.
    init(_ fields: repeat ValueField<Root, each Value>, make: @escaping @Sendable (repeat each Value) -> Root) {
        var numbers: Set<Int> = []
        for field in repeat each fields {
            precondition(numbers.insert(field.number).inserted, "\(Root.self): field \(field.number) declared twice")
        }
        self.fields = (repeat each fields)
        self.make = make
    }
}

extension ValueLayout: MessageLayout {
    func encode(_ root: Root, to writer: inout FieldWriter) {
        for field in repeat each fields { field.write(root, &writer) }
    }

    func decode(_ reader: inout FieldReader) throws(CodecError) -> Root {
        let message = try FieldsByNumber(&reader)
        return make(repeat try (each fields).read(message))
    }
}

/// A layout that writes and reads a value of type `Root` (``ValueLayout``, whatever its fields).
protocol MessageLayout: Sendable {
    associatedtype Root
    func encode(_ root: Root, to writer: inout FieldWriter)
    func decode(_ reader: inout FieldReader) throws(CodecError) -> Root
}

/// A value whose encoding and decoding both follow from its declared ``layout``.
protocol DeclaredFieldCodable: FieldCodable {
    associatedtype Layout: MessageLayout where Layout.Root == Self
    static var layout: Layout { get }
}

extension DeclaredFieldCodable {
    func encode(to writer: inout FieldWriter) { Self.layout.encode(self, to: &writer) }
    init(from reader: inout FieldReader) throws(CodecError) { self = try Self.layout.decode(&reader) }
}
