/// The room in the delivery queue a call the gate held must find before it is replayed
/// (``PublicCall/Name/SwitchBehavior/gated(room:)``): what it will queue once it runs. A call
/// that does not fit stays held until tasks leave the queue; an empty queue takes any call.
package enum HeldCallRoom: Sendable, Hashable {
    /// The task of the request ``RequestBody`` builds for the call, if any, whoever the user is.
    case itsRequest
    /// Naming the user (its argument given) registers the push token, if there is one, and
    /// releases the events held for the unknown user, which hold their room already; clearing
    /// it, its request.
    case identifying
    /// None: what it queues (a disable) is never refused by the queue's bounds.
    case nothing
    /// While the user is unknown the event is held for them, holding the room its body will
    /// take (none when the held events are full: it is discarded for that, not for the queue);
    /// once known, its request.
    case heldEventWhileUnknown
    /// A profile call: no task without a user (refused, or made once the user is known); with
    /// one, its request.
    case requestForKnownUser
}
