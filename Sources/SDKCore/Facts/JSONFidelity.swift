/// How the JSON a data value is written as (``DataValue/writeJSON(to:depth:fidelity:)``) stands
/// for the value. Ordered: a value's fidelity is the worst of its parts'.
package enum JSONFidelity: Comparable, Sendable {
    /// The JSON reads back as the same value (``DataValue/members(ofJSON:baseOffset:)``).
    case exact
    /// The JSON is right, but a whole `Double` in it is written as an integer (`3.0` as `3`,
    /// as request bodies always wrote it), so it would read back as ``DataValue/integer(_:)``.
    case wholeNumbers
    /// The value cannot be sent: a number that is not finite (written as `null`), or nesting
    /// past the depth asked for. What was written is not to be used.
    case unsendable
}
