/// A module plugs into each SDK instance and hears its lifecycle (after MoEngage's module
/// protocol). Events arrive in order, per instance: `initialize`, then `start` once, then
/// notifications and resets, then at most one `deinitialize`. Each delivery is journaled.
///
/// What the SDK guarantees: a module's events never overlap. While its awaited handler runs
/// (even past its bound, once the SDK stopped waiting and cancelled its task), its later events,
/// the next instance's `initialize` and `start` included, wait until it returns. A failure counts
/// against the instance (``ModuleContext/generation``) whose event failed. What implementers must
/// guarantee: ``process(event:context:)`` returns quickly (it runs on the engine thread) and
/// never calls the SDK's blocking getters; an awaited handler should end when its task is cancelled.
public protocol SDKModule: AnyObject, Sendable {
    /// The module's name (unique among the SDK's modules) and version.
    var info: ModuleInfo { get }
    /// System notifications the module wants delivered as ``ModuleEvent/notification(_:)``.
    var notificationNames: [String] { get }
    /// Handles an event synchronously on the engine's thread. Must be quick and must not call
    /// back into the SDK's blocking getters. A thrown error is journaled and makes the step
    /// that delivered the event (a reset, an instance start) noisy.
    func process(event: ModuleEvent, context: ModuleContext) throws
    /// Handles an awaited event (``ModuleEvent/willLogout``, ``ModuleEvent/willSwitchProject(to:)``).
    /// The SDK waits for it up to its bound; an overrun is journaled and makes the step noisy.
    func processAwaited(event: ModuleEvent, context: ModuleContext) async throws
}

extension SDKModule {
    public var notificationNames: [String] { [] }
    public func processAwaited(event: ModuleEvent, context: ModuleContext) async throws {}
}

/// A module's name and version.
public struct ModuleInfo: Sendable, Hashable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

/// Which instance an event is for: per-instance module state is keyed by the project.
public struct ModuleContext: Sendable, Hashable {
    public var project: ProjectFingerprint
    public var generation: UInt64
}
