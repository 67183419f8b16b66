/// A fact kind's journal number, family and fields, declared once; every declaration is in
/// `Fact+Declarations.swift`. The fact codec, `replay`'s JSON, the ``Redactor`` and the
/// families' dispatch are derived from it; how a fact changes the state is its family's
/// (`SDKState+Evolve<Family>.swift`).
///
/// A class: each kind's declaration is one shared, immutable instance.
package final class FactDeclaration: Sendable {
    package let kind: FactKind
    package let family: FactFamily
    /// In the order the journal writes them: by number.
    package let fields: [FactField]
    /// The order `replay`'s JSON shows the fields in, as indices into ``fields``.
    package let jsonOrder: [Int]
    /// Whether every field is structure or an identifier: a redacted copy keeps such a fact
    /// whole (``Redactor``).
    package let isKeptWholeWhenRedacted: Bool

    /// `jsonOrder` nil: the fields' own order.
    package init(_ kind: FactKind, _ family: FactFamily, _ fields: [FactField] = [], jsonOrder: [Int]? = nil) {
        precondition(zip(fields, fields.dropFirst()).allSatisfy { $0.number < $1.number }, "\(kind): fields out of number order")
        self.kind = kind
        self.family = family
        self.fields = fields
        self.jsonOrder = jsonOrder ?? Array(fields.indices)
        self.isKeptWholeWhenRedacted = fields.allSatisfy { $0.privacy == .structural || $0.privacy == .identifier }
    }

    /// Whether the JSON shows the fields in another order than the journal's.
    package var reordersJSON: Bool { jsonOrder != Array(fields.indices) }
}
