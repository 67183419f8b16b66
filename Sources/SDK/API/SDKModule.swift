import SDKCore

/// A module plugs into each SDK instance and hears its lifecycle (after MoEngage's module
/// protocol). Each delivery is journaled.
///
/// Signals arrive in order, per instance: `ModuleSignal.initialize`, then `ModuleSignal.start`
/// once, then notifications, resets, `ModuleSignal.willLogout` and
/// `ModuleSignal.willSwitchProject(to:)`, then at most one `ModuleSignal.deinitialize`. The same
/// module object serves every instance of one SDK, one after another; ``ModuleContext`` says which
/// instance a signal is for.
///
/// ## Implementation requirements
///
/// - ``process(signal:context:)`` runs on the SDK's engine thread: return quickly, and never call
///   ``EngagementSDK/shutdown()`` or read ``EngagementSDK/journalFailure`` from it (they wait for
///   the engine thread, the one calling you). Public calls are allowed (on the engine thread they
///   never wait), and so are the other properties, which there see the state as of the last inputs
///   of inputs.
/// - ``processAwaited(signal:context:)`` runs on a task of its own: it should finish within
///   `EngineRules.moduleHookBoundMilliseconds` and end when its task is cancelled.
/// - Keep per-instance state keyed by ``ModuleContext/project`` and ``ModuleContext/generation``;
///   drop a project's data on `ModuleSignal.reset`.
/// - ``info``'s name is unique among the SDK's modules.
///
/// ## What the SDK guarantees
///
/// - A module's signals never overlap. While its awaited handler runs (even past its bound, once the
///   SDK stopped waiting and cancelled its task), its later signals, the next instance's
///   `initialize` and `start` included, wait until it returns.
/// - The SDK waits for an awaited handler at most its bound: an overrun is journaled, makes the
///   step end with a warning (a switch then reports `SwitchResult.switchedWithWarnings`) and its task is
///   cancelled, never a hang.
/// - A thrown error is journaled, never fatal, and counts against the instance
///   (``ModuleContext/generation``) whose signal failed, never the next instance's start.
public protocol SDKModule: AnyObject, Sendable {
    /// The module's name (unique among the SDK's modules) and version, journaled with its signals.
    /// Read once, when the instance is made.
    var info: ModuleInfo { get }
    /// System notifications the module wants delivered as `ModuleSignal.notification(_:)` (see
    /// ``EngagementSDK/notify(_:)``). Read once, when the instance is made; none by default.
    var notificationNames: [String] { get }
    /// Handles a signal synchronously on the engine's thread, before the engine goes on.
    ///
    /// Must be quick and must not wait for the SDK. A thrown error is journaled and makes the step
    /// that delivered the signal (a reset, an instance start) end with a warning.
    func process(signal: ModuleSignal, context: ModuleContext) throws
    /// Handles an awaited signal (`ModuleSignal.willLogout`,
    /// `ModuleSignal.willSwitchProject(to:)`) on a task of its own, off the engine thread.
    ///
    /// The SDK waits for it up to `EngineRules.moduleHookBoundMilliseconds` while it goes on
    /// processing calls; an overrun or a thrown error is journaled and gives the step a warning, and an
    /// overrun's task is cancelled. Does nothing by default.
    func processAwaited(signal: ModuleSignal, context: ModuleContext) async throws
}

extension SDKModule {
    /// No notifications.
    public var notificationNames: [String] { [] }
    /// Returns at once.
    public func processAwaited(signal: ModuleSignal, context: ModuleContext) async throws {}
}

/// A module's name and version.
public struct ModuleInfo: Sendable, Hashable {
    /// The module's name, unique among an SDK's modules (e.g. `push`).
    public var name: String
    /// The module's version, journaled with its signals.
    public var version: String

    /// A module's name and version.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

/// Which instance a signal is for: per-instance module state is keyed by the project and the
/// generation.
public struct ModuleContext: Sendable, Hashable {
    /// The project of the instance the signal is for.
    public var project: ProjectFingerprint
    /// The instance's number, one more for each instance the SDK starts: it tells two instances of
    /// the same project apart (A, then B, then A again).
    public var generation: UInt64
}
