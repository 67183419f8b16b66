/// The families public calls are grouped in: each family's calls run in one file
/// (`SDKState+<Family>Calls.swift`); a call names its family with its name (``PublicCall/Name/family``).
package enum CallFamily: Sendable, CaseIterable {
    /// Who the user is: email, user id, their profile, logout.
    case identity
    /// Events and commerce: custom events, purchases, the cart.
    case event
    /// Push: the device's token, its disable, push opens.
    case push
    /// In-app and embedded messages.
    case message
    /// Attribution and the tracked links that carry it.
    case attribution
    /// Run by the switch machinery itself: initialize, switchProject, flush.
    case control
}
