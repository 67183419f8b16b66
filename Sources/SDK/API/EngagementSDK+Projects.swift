import Foundation

extension EngagementSDK {
    /// Starts the SDK on `project`. Returns at once; `completion` hears `.applied` once the
    /// instance is started (on the callback queue). If the journal was last on another project,
    /// this is a switch at launch: the previous project's identity and storage are cleared
    /// (never carried into this one) and its device disable is kept; the journal records it all.
    public func initialize(_ project: Project, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        post(.initialize(project.reference(endpoints: configuration.regionEndpoints)),
             .project(project, completion.map(CallCompletion.outcome)))
    }

    /// Starts the SDK on `project` and returns once it is (see ``initialize(_:completion:)``).
    @discardableResult
    public func initialize(_ project: Project) async -> CallOutcome {
        await withCheckedContinuation { continuation in
            initialize(project) { continuation.resume(returning: $0) }
        }
    }

    /// Moves the running SDK to `project` (its key *and* configuration: the live key with
    /// another region, endpoint or auth is a switch too). Returns at once; `completion` runs
    /// once, on the callback queue, when the switch lands: ``SwitchResult/switchedCleanly`` or
    /// ``SwitchResult/switchedWithWarnings``, and in both cases the SDK is on `project` (a
    /// switch never fails and is never rolled back); or, if the SDK shut down first,
    /// ``SwitchResult/notPerformed`` / ``SwitchResult/interruptedByShutdown``. Calls made
    /// meanwhile are routed as the switch contract says (docs/ARCHITECTURE.md).
    public func switchProject(to project: Project, completion: @escaping @Sendable (SwitchResult) -> Void) {
        post(.switchProject(project.reference(endpoints: configuration.regionEndpoints)), .project(project, .switchResult(completion)))
    }

    /// Moves the running SDK to `project` and returns the result when the switch lands (see
    /// ``switchProject(to:completion:)``); returns at once after ``shutdown()``.
    @discardableResult
    public func switchProject(to project: Project) async -> SwitchResult {
        await withCheckedContinuation { continuation in
            switchProject(to: project) { continuation.resume(returning: $0) }
        }
    }

    /// What switching is doing now, as of every call made before this read on this thread.
    public var switchStatus: SwitchStatus { read { $0.switchStatus } }

    /// The switch status as it changes: first the status now, then each change, until the SDK
    /// shuts down. Statuses come from the engine after each batch of inputs; a slow reader
    /// loses the oldest ones first (it always ends on the latest).
    public func switchStatusUpdates() -> AsyncStream<SwitchStatus> {
        status.stream()
    }

    /// Opens a universal link the app was launched with. A tracked link (`https://<host>/a/...`)
    /// is resolved over HTTP into its destination and the campaign, template and message it
    /// was sent for (kept as attribution, as a push open is); any other link resolves at once to
    /// itself. Runs against the project the SDK is on, even during a switch; a resolution that
    /// comes back after that instance was replaced is refused (its attribution never reaches
    /// another project). `completion` runs once, on the callback queue.
    public func handleUniversalLink(_ url: URL, completion: @escaping @Sendable (UniversalLinkResult) -> Void) {
        let address = url.absoluteString
        post(.handleUniversalLink(url: address), .completion(.link { result in
            var result = result
            if result.destination == nil, case .applied = result.outcome { result.destination = address }
            completion(result)
        }))
    }

    /// Opens a universal link and returns what it resolved to (see ``handleUniversalLink(_:completion:)``).
    @discardableResult
    public func handleUniversalLink(_ url: URL) async -> UniversalLinkResult {
        await withCheckedContinuation { continuation in
            handleUniversalLink(url) { continuation.resume(returning: $0) }
        }
    }

    /// Delivers a system notification (e.g. `foreground`) to the modules that asked for it.
    public func notify(_ name: String) {
        mailboxPost(.notificationReceived(name))
    }

    /// Why the journal is not recording now, if it is not (a failed write or sync): the SDK
    /// keeps working in memory, flushes report what could not be made durable, and recording
    /// resumes, with a journaled gap, once a write succeeds again (retried with backoff).
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
