import SDKCore

/// Each pending call's completion, by call id: filed when the call reaches the engine, taken
/// out when it resolves, once each per call. Laid out by ``CallTableSlots`` (open addressing, no
/// entry moved by a removal; the state's pending calls are laid out the same way), with the
/// completions beside the slots, slot for slot.
struct CompletionTable: Sendable {
    private var slots = CallTableSlots()
    private var completions: [CallCompletion?] = Array(repeating: nil, count: CallTableSlots().capacity)

    /// The completions filed.
    var count: Int { slots.count }

    /// Files `completion` for `call`, replacing one filed for it.
    mutating func insert(_ completion: consuming CallCompletion, for call: CallID) {
        if slots.isCrowded { slots.rebuild(carrying: &completions) }
        let (slot, found) = slots.place(of: call)
        if !found { slots.fill(slot, with: call) }
        completions[slot] = completion
    }

    /// Takes out and returns the completion filed for `call`; nil when none is.
    mutating func remove(_ call: CallID) -> CallCompletion? {
        guard slots.count > 0 else { return nil }
        let (slot, found) = slots.place(of: call)
        guard found else { return nil }
        slots.vacate(slot)
        return completions[slot].take()
    }

}
