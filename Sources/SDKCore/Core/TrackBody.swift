/// An `events/track` body (``RequestBody/trackBody(_:dataFields:identity:createdAt:)``), with
/// where its data fields' JSON lies in it: a `track` call's busiest bytes, written once and
/// shared by its record (``FactCodec/append(callReceived:dataFieldsJSON:to:)``), its
/// validation and its request when the call runs at once (``SDKState/preparedTrack(for:at:)``).
struct TrackBody {
    /// The body's JSON.
    var bytes: [UInt8]
    /// The data fields' JSON within ``bytes``; nil for a call without data fields.
    var dataFields: Range<Int>?
    /// How the data fields' JSON stands for them, nested at most ``DataValue/maxDepth`` deep: a
    /// record may carry it only when ``JSONFidelity/exact``, and an unsendable call is
    /// rejected (its body is never sent).
    var fidelity: JSONFidelity
}
