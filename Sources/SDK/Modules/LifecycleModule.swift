import Locking
import SDKCore

/// A module that keeps, per instance (keyed by project and generation), the signals it heard.
///
/// The built-in in-app, embedded and push modules are this: the data they act on (message ids,
/// push tokens) lives in the SDK's journaled state, so what they own per instance is their
/// lifecycle. Tests read ``signals(for:)`` to check that an instance was released (its
/// `deinitialize` ran) and the next one started.
public final class LifecycleModule: SDKModule {
    public let info: ModuleInfo
    public let notificationNames: [String]
    private let heard = Locked<[ModuleContext: [ModuleSignal]]>([:])

    public init(name: String, notifications: [String] = [], version: String = EngagementSDK.version) {
        info = ModuleInfo(name: name, version: version)
        notificationNames = notifications
    }

    public func process(signal: ModuleSignal, context: ModuleContext) throws {
        heard.withLock { $0[context, default: []].append(signal) }
    }

    public func processAwaited(signal: ModuleSignal, context: ModuleContext) async throws {
        heard.withLock { $0[context, default: []].append(signal) }
    }

    /// The signals one instance heard, in order.
    public func signals(for context: ModuleContext) -> [ModuleSignal] {
        heard.withLock { $0[context] ?? [] }
    }

    /// Every instance this module served.
    public var instances: [ModuleContext] {
        heard.withLock { Array($0.keys) }.sorted { ($0.generation, $0.project) < ($1.generation, $1.project) }
    }
}
