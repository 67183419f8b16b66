extension PublicCall {
    /// The call with its personal and free-text values emptied, as the journal keeps a call made
    /// while the user declined: which arguments were given and their structure (identifier-shaped
    /// data-field keys, item ids and prices), never what they said. Identifiers and structure stay
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
    /// Texts made empty, data-field values made null and keys that may name someone numbered;
    /// the shape (presence, identifier keys, counts) kept.
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

    /// Each value null; each key that is not identifier-shaped (``Redactor/keeps(key:)``: a
    /// phone number, an address) replaced by `#1`, `#2`, …, so no personal value is left and
    /// the count of fields stays. A kept key never starts with `#`, so the two never meet.
    static func nulled(_ members: [String: DataValue]) -> [String: DataValue] {
        var nulled = [String: DataValue](minimumCapacity: members.count)
        var replaced = 0
        for key in members.keys {
            if Redactor.keeps(key: key) { nulled[key] = .null } else { replaced += 1 }
        }
        for number in 0..<replaced { nulled["#\(number + 1)"] = .null }
        return nulled
    }
}
