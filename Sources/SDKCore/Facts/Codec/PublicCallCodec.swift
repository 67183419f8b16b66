// A public call in a journal record: its declaration's tag in field 1, then each argument in its
// declared field (``CallDeclaration``). Tags and field numbers are part of the journal format.

// Hand-written over its own declaration (``CallDeclaration``), with `track`'s bytes written directly (its busiest call).
extension PublicCall: FieldCodable {
    func encode(to writer: inout FieldWriter) {
        if case .track(let event, let dataFields) = self {
            // The busiest call skips the walk over its declaration (the same bytes:
            // `CallDeclarationTests` compares the two for every call shape).
            return Self.encodeTrack(event, to: &writer) { $0.message(4, dataFields.map(DataObject.init)) }
        }
        encodeDeclared(to: &writer)
    }

    /// The call's fields as its declaration lays them out.
    func encodeDeclared(to writer: inout FieldWriter) {
        let declaration = self.declaration
        writer.unsigned(1, declaration.tag)
        for (argument, value) in zip(declaration.arguments, arguments) {
            Self.encode(value, as: argument.number, to: &writer)
        }
    }

    /// A `track` call's fields, its data fields written by `dataFields`: one spelling for the
    /// variant, whether the data fields are encoded here or copied from a body.
    @inline(__always)
    static func encodeTrack(_ event: String, to writer: inout FieldWriter, dataFields: (inout FieldWriter) -> Void) {
        writer.unsigned(1, CallDeclaration.track.tag); writer.string(3, event); dataFields(&writer)
    }

    private static func encode(_ value: ArgumentValue, as field: Int, to writer: inout FieldWriter) {
        switch value {
        case .text(let text): writer.string(field, text)
        case .count(let count): writer.int(field, count)
        case .amount(let amount): writer.double(field, amount)
        case .flag(let flag): writer.bool(field, flag)
        case .dataFields(let members): writer.message(field, members.map(DataObject.init))
        case .items(let items): writer.message(field, CommerceItems(items))
        case .project(let project): writer.message(field, project)
        case .pushOpen(let open): writer.message(field, open)
        case .attribution(let info): writer.message(field, info)
        case .callName(let name): writer.string(field, name.rawValue)
        }
    }

    init(from reader: inout FieldReader) throws(CodecError) {
        let fields = try VariantFields(&reader)
        if fields.tag == 9 {
            // The busiest call skips the walk over its declaration (the same call:
            // `CallDeclarationTests` compares the two for every call shape).
            self = .track(event: try fields.requiredString(3, "eventName"), dataFields: (try fields.message(4, DataObject.self))?.members)
            return
        }
        self = try Self(declaredFields: fields)
    }

    /// The call `fields` hold, read as its declaration lays them out.
    init(declaredFields fields: VariantFields) throws(CodecError) {
        guard let tag = fields.tag, let declaration = CallDeclaration.tagged(tag) else { throw fields.unknown("call") }
        var values: [ArgumentValue] = []
        for argument in declaration.arguments {
            values.append(try Self.decode(argument, from: fields))
        }
        guard let call = PublicCall(declaration, arguments: values) else { throw fields.unknown("call") }
        self = call
    }

    private static func decode(_ argument: ArgumentDeclaration, from fields: VariantFields) throws(CodecError) -> ArgumentValue {
        let number = argument.number
        let required = argument.presence == .required
        let defaulted = argument.presence == .defaulted
        switch argument.kind {
        case .email, .userID, .pushToken, .identifier, .url, .link, .reason:
            if required { return .text(try fields.requiredString(number, argument.name)) }
            return .text(try fields.string(number) ?? (defaulted ? "" : nil))
        case .callName:
            let name = try fields.requiredString(number, argument.name)
            guard let known = PublicCall.Name(rawValue: name) else { throw fields.unknown("call") }
            return .callName(known)
        case .dataFields:
            let members = (try fields.message(number, DataObject.self))?.members
            return .dataFields(members ?? (defaulted ? [:] : nil))
        case .items:
            return .items((try fields.message(number, CommerceItems.self))?.items ?? [])
        case .messageCount:
            return .count(try fields.int(number) ?? 0)
        case .amount:
            return .amount(try fields.double(number) ?? 0)
        case .flag:
            return .flag(try fields.bool(number))
        case .project:
            return .project(try fields.requiredMessage(number, argument.name))
        case .pushOpen:
            return .pushOpen(try fields.requiredMessage(number, argument.name))
        case .attribution:
            return .attribution(try fields.message(number))
        }
    }
}
