import Foundation

extension EngagementSDK {
    /// Starts the SDK on `project`. If the journal was last on another project, this is a switch
    /// at launch: the previous project's identity and storage are cleared (never carried into
    /// this one) and its device disable is kept; the journal records it all.
    public func initialize(_ project: Project, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        post(.initialize(project.reference(endpoints: configuration.regionEndpoints)),
             .project(project, completion.map(CallCompletion.outcome)))
    }

    /// Moves the running SDK to `project`. Returns at once; `completion` runs (on the callback
    /// queue) when the switch lands, reporting whether every teardown step was clean. Never
    /// fails and is never rolled back: the SDK is on `project` in both cases. Calls made
    /// meanwhile are routed as the switch contract says (docs/ARCHITECTURE.md).
    public func switchProject(to project: Project, completion: @escaping @Sendable (SwitchResult) -> Void) {
        post(.switchProject(project.reference(endpoints: configuration.regionEndpoints)), .project(project, .switchResult(completion)))
    }

    /// Moves the running SDK to `project` and returns the result when the switch lands.
    @discardableResult
    public func switchProject(to project: Project) async -> SwitchResult {
        await withCheckedContinuation { continuation in
            switchProject(to: project) { continuation.resume(returning: $0) }
        }
    }

    /// Delivers a system notification (e.g. `foreground`) to the modules that asked for it.
    public func notify(_ name: String) {
        mailboxPost(.notificationReceived(name))
    }

    /// Why the journal stopped recording, if it did (a failed write or sync). The SDK keeps
    /// working in memory, but flushes fail and `replay` sees nothing after the failure.
    public var journalFailure: String? { engineView()?.journalFailure }

    // MARK: - Reads (each sees every call made before it on the same thread)

    /// The user's email, as of every call made before this read on this thread.
    public var email: String? { read { $0.email } }
    /// The user's id, as of every call made before this read on this thread.
    public var userId: String? { read { $0.userID } }
    /// The attribution info of the project the SDK is on.
    public var attributionInfo: AttributionInfo? { read { $0.attribution } }
    /// The push token registered with the SDK.
    public var pushToken: String? { read { $0.pushToken } }
    /// The fingerprint of the project the SDK is on (nil before initialization).
    public var liveProject: ProjectFingerprint? { read { $0.live } }
    /// The ids of the in-app messages fetched for the project the SDK is on.
    public var inAppMessageIDs: [String] { read { $0.inAppMessageIDs } }
    /// The ids of the embedded messages fetched for the project the SDK is on.
    public var embeddedMessageIDs: [String] { read { $0.embeddedMessageIDs } }
}
