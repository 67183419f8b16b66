/// The lifecycle signals a module receives, in this order for each instance: `initialize`, then
/// `start` once, then any notifications and resets, then at most one `deinitialize`.
///
/// Not an analytics event: the journal's record of a delivery keeps its historical name,
/// `moduleEventDelivered`, with the member `event` (as does `moduleHookStarted`), because kind
/// names and JSON members are format (docs/FORMAT-RATIONALE.md, "The SDK's records").
public enum ModuleSignal: Sendable, Hashable {
    case initialize
    case start
    /// A system notification the module asked for (by name), e.g. `foreground`.
    case notification(String)
    /// The SDK's project switch asks the module to drop its per-project data (in-app, embedded).
    case reset
    case deinitialize
    /// Awaited, with a bound: the user is logging out.
    case willLogout
    /// Awaited, with a bound: the instance is about to be released for a switch to `to`.
    case willSwitchProject(to: ProjectFingerprint)

    /// Whether the SDK awaits the module's async handler for this signal.
    public var isAwaited: Bool {
        switch self {
        case .willLogout, .willSwitchProject: true
        case .initialize, .start, .notification, .reset, .deinitialize: false
        }
    }

    package var label: String {
        switch self {
        case .initialize: "initialize"
        case .start: "start"
        case .notification(let name): "notification \(name)"
        case .reset: "reset"
        case .deinitialize: "deinitialize"
        case .willLogout: "willLogout"
        case .willSwitchProject(let to): "willSwitchProject \(to)"
        }
    }
}
