/// What writing an `events/track` body (``RequestBody/writeTrackBody(_:dataFields:identity:createdAt:into:)``)
/// found: where its data fields' JSON lies in it, and how that JSON stands for them. A
/// `track` call's busiest bytes are written once and shared by its record
/// (``FactCodec/append(callReceived:dataFieldsJSON:to:)``), its validation and its request
/// when the call runs at once (``SDKState/prepareTrackBody(for:at:)``).
struct TrackBody: Sendable {
    /// The data fields' JSON within the body; nil for a call without data fields.
    var dataFields: Range<Int>?
    /// How the data fields' JSON stands for them, nested at most ``DataValue/maxDepth`` deep: a
    /// record may carry it only when ``JSONFidelity/exact``, and an unsendable call is
    /// rejected (its body is never sent).
    var fidelity: JSONFidelity
}
