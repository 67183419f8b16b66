/// What deciding an input computes from the input alone, computed beforehand by whoever posts
/// it, on its own thread: today the JSON of a `track` call's data fields, which its request
/// body carries. ``SDKState/decide(_:at:into:prepared:)`` uses it instead of writing the same
/// bytes again; without it, it writes them itself. Either way the same decisions.
package struct PreparedInput: Sendable {
    /// The call the preparation belongs to (the input's own call, not one it releases).
    let call: CallID
    /// The call's data fields as compact JSON with sorted keys (``DataValue/jsonBytes()``).
    let dataFieldsJSON: [UInt8]

    /// The preparation of the input `callReceived(received)`; nil when deciding it has nothing
    /// to take from one.
    package init?(_ received: borrowing ReceivedCall) {
        guard case .track(_, let dataFields?) = received.call else { return nil }
        call = received.id
        dataFieldsJSON = DataValue.object(dataFields).jsonBytes()
    }

    /// The data fields' JSON, when `id` is the call prepared.
    func dataFieldsJSON(for id: CallID?) -> [UInt8]? {
        id == call ? dataFieldsJSON : nil
    }
}
