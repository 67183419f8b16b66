/// What a declared value may reveal about a person: decides what a redacted copy of the journal
/// keeps of it (``Redactor``, `replay export --redact`).
package enum PrivacyClass: String, Sendable, Hashable, CaseIterable {
    /// Names or reaches a person: an email, a user id, a push token, data-field values. A
    /// redacted copy holds a keyed-hash token in its place.
    case personal
    /// Text the app, a module or a server wrote, which may quote anything (a URL, a reason). A
    /// redacted copy keeps only the SDK's and the platform's own words, short numbers and the
    /// SDK's ids of it (``Redactor/redact(text:)``), and of a URL what ``Redactor/redact(url:)``
    /// keeps; everything else becomes tokens.
    case freeText
    /// Names a thing of the project, not a person: an event name, a message, campaign or
    /// template id, a call's name. Kept.
    case identifier
    /// Shape and amounts: counts, flags, totals, projects, the structure around other values.
    /// Kept.
    case structural
}
