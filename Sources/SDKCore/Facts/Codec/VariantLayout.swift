/// An enum value's variants (``ValueVariant``), found by tag when it is decoded: the tag is
/// field 1 (the last one counts); the variant's fields are read as the last of their numbers,
/// in the order declared. A tag this build does not know is an unknown variant (a newer
/// writer's), named as `unknown <name> variant <tag>`.
struct VariantLayout<Root>: Sendable {
    /// One variant's tag and how its case is read.
    struct Reader: Sendable {
        let tag: UInt64
        let read: @Sendable (_ message: FieldsByNumber) throws(CodecError) -> Root
    }

    /// What the errors call the value (`unknown <name> variant 9`).
    private let name: String
    /// By tag.
    private let readers: [UInt64: Reader]

    init(_ name: String, _ variants: [Reader]) {
        self.name = name
        var readers: [UInt64: Reader] = [:]
        for variant in variants {
            precondition(readers.updateValue(variant, forKey: variant.tag) == nil, "\(name): variant \(variant.tag) declared twice")
        }
        self.readers = readers
    }

    func decode(_ reader: inout FieldReader) throws(CodecError) -> Root {
        let fields = try VariantFields(&reader)
        guard let tag = fields.tag, let variant = readers[tag] else { throw fields.unknown(name) }
        return try variant.read(fields.others)
    }
}

/// An enum whose variants are declared (``ValueVariant``): decoding follows from ``variants``;
/// encoding is its own exhaustive switch, writing each case through its variant.
protocol DeclaredVariantCodable: FieldCodable {
    static var variants: VariantLayout<Self> { get }
}

extension DeclaredVariantCodable {
    init(from reader: inout FieldReader) throws(CodecError) { self = try Self.variants.decode(&reader) }
}
