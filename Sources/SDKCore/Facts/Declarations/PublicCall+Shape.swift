extension PublicCall {
    /// The call with its personal and free-text values emptied, as the journal keeps a call made
    /// while the user declined: which arguments were given and their structure (data-field
    /// keys, item ids and prices), never what they said. Identifiers and structure stay
    /// (``PrivacyClass``).
    package var withoutPersonalValues: PublicCall {
        mapArguments { argument, value in
            switch argument.kind.privacy {
            case .personal, .freeText: value.emptied
            case .identifier, .structural: value
            }
        }
    }
}

extension ArgumentValue {
    /// Texts made empty, data-field values made null; the shape (presence, keys, counts) kept.
    var emptied: ArgumentValue {
        switch self {
        case .text(let text):
            return .text(text.map { _ in "" })
        case .dataFields(let members):
            return .dataFields(members.map(Self.nulled))
        case .items(let items):
            return .items(items.map { item in
                var item = item
                item.dataFields = item.dataFields.map(Self.nulled)
                return item
            })
        case .pushOpen(var open):
            open.dataFields = open.dataFields.map(Self.nulled)
            return .pushOpen(open)
        case .project, .amount, .flag, .count, .attribution, .callName:
            return self
        }
    }

    private static func nulled(_ members: [String: DataValue]) -> [String: DataValue] {
        members.mapValues { _ in .null }
    }
}
