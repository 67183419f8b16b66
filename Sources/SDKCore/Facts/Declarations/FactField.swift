/// One field of a fact, declared once (``FactDeclaration``): its JSON key, its number in the
/// journal record, whether a record must carry it, and what it may reveal of a person.
package struct FactField: Sendable {
    /// Whether a journal record must carry the field.
    package enum Presence: Sendable, Hashable {
        /// Always written; a record without it is damaged (`required field <key> is missing`).
        case required
        /// May be absent (nil).
        case optional
        /// Read as its kind's empty value (`""`, `0`) when absent.
        case defaulted
        /// Written once per element, in order; absent means none.
        case repeated
    }

    /// What a text field holds: decides what a redacted copy keeps of it.
    package enum Text: Sendable {
        /// A name of the SDK's or the app's own (a module, a notification): kept.
        case name
        /// Names a thing of the project (a message id): kept.
        case identifier
        /// Written by a server, a module or the platform (reasons, failures, errors): keeps
        /// the SDK's own words only (``Redactor/redact(text:)``).
        case freeText
        /// A URL: keeps scheme, host and path (``Redactor/redact(url:)``).
        case url
        /// Personal: a keyed-hash token of this kind stands for it.
        case personal(token: PersonalToken)
    }

    /// The kind of token a redacted copy gives a personal text.
    package enum PersonalToken: String, Sendable {
        case email
        case user
        case token
    }

    /// Its member in `replay`'s JSON, and the name decoding errors give it. A field whose
    /// value is one of the SDK's composite values may show as several members (the value's).
    package let key: StaticString
    /// Its field number in the fact's journal record: part of the format, never reused. 0: the
    /// value's own message is the whole payload (input facts that carry one value).
    package let number: Int
    package let presence: Presence
    /// What the value may reveal; for text fields, as ``text`` says.
    package let privacy: PrivacyClass
    /// For text fields (``FactFieldValue/text(_:)`` and ``FactFieldValue/texts(_:)``): what
    /// the text is; nil for every other value.
    package let text: Text?

    /// A field holding a value other than text: `privacy` is what the value's own redaction
    /// keeps (``Redactor``): `structural` and `identifier` values are kept whole.
    package init(_ key: StaticString, _ number: Int, _ presence: Presence, _ privacy: PrivacyClass) {
        self.key = key
        self.number = number
        self.presence = presence
        self.privacy = privacy
        self.text = nil
    }

    /// A text field (one text, or several when `repeated`).
    package init(_ key: StaticString, _ number: Int, _ presence: Presence, text: Text) {
        self.key = key
        self.number = number
        self.presence = presence
        self.text = text
        self.privacy = switch text {
        case .name: .structural
        case .identifier: .identifier
        case .freeText, .url: .freeText
        case .personal: .personal
        }
    }

    /// The key as a string.
    package var name: String { key.description }
}
