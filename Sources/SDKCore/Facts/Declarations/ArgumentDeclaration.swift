/// One argument of a public call, declared once: the journal, validation, redaction and the
/// renderers are derived from it (``CallDeclaration``).
package struct ArgumentDeclaration: Sendable {
    /// Whether a journal record must carry the argument.
    package enum Presence: Sendable, Hashable {
        /// Always written; a record without it is damaged.
        case required
        /// May be absent (nil).
        case optional
        /// Read as its kind's empty value (`""`, `0`, `false`, `[]`, `{}`) when absent.
        case defaulted
    }

    /// How `replay`'s one-line summaries show the argument (after the call's name).
    package enum TextStyle: Sendable, Hashable {
        /// In quotes; omitted when absent.
        case quoted
        /// In quotes, or `nil` when absent.
        case quotedOrNil
        /// As it is; omitted when absent.
        case plain
        /// After a word: `count 5`, `button buy`; omitted when absent.
        case labelled(String)
        /// The keys of a data-fields object: `{a, b}`.
        case keys
        /// How many: `3 item(s)`.
        case itemCount
        /// A number, whole when it is one.
        case number
        /// One word for each answer: `merge` or `replace`.
        case choice(yes: String, no: String)
        /// As the kind shows its value (a project, a push open, an attribution).
        case composite
        /// `(oversized: reason)`.
        case oversized
        /// Not shown.
        case hidden
    }

    /// The argument's name in the public API, as validation messages name it (`messageId`).
    package let name: String
    /// Its member in `replay`'s JSON (`message_id`); nil when the value's own members are
    /// written in the call's object (a push open's).
    package let jsonKey: StaticString?
    /// Its field number in a journal's call record: part of the format, never reused.
    package let number: Int
    package let kind: ArgumentKind
    package let presence: Presence
    package let text: TextStyle

    package init(_ name: String, json jsonKey: StaticString?, field number: Int, _ kind: ArgumentKind, _ presence: Presence, text: TextStyle) {
        self.name = name
        self.jsonKey = jsonKey
        self.number = number
        self.kind = kind
        self.presence = presence
        self.text = text
    }

    /// What a redacted copy keeps of it (its kind's class).
    package var privacy: PrivacyClass { kind.privacy }
}
