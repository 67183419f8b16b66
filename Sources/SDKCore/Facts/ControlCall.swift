/// A public call the engine handles itself, at once and never behind the gate: it starts the
/// SDK, moves it to another project, waits for the journal, records consent or erases what the
/// device holds (``PublicCall/Name/SwitchBehavior/control``).
///
/// Its own type so that the code that runs control calls switches over these five alone, and a
/// new data call is never asked there.
package enum ControlCall: Sendable, Hashable {
    case initialize(ProjectRef)
    case switchProject(ProjectRef)
    case flush
    /// The user agreed (`granted: true`) or declined: while declined, no request leaves and
    /// every call but the control calls resolves at once as declined.
    case setConsent(granted: Bool)
    /// Deletes what the device recorded of the user (``Fact/localDataErased(_:)``).
    case eraseLocalData

    /// The call's name.
    package var name: PublicCall.Name {
        switch self {
        case .initialize: .initialize
        case .switchProject: .switchProject
        case .flush: .flush
        case .setConsent: .setConsent
        case .eraseLocalData: .eraseLocalData
        }
    }
}
