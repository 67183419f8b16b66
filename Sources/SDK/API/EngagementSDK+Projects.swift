import Foundation
import SDKCore

extension EngagementSDK {
    /// Starts the SDK on `project`: the first call an app makes, once per launch.
    ///
    /// If the journal was last on another project, this is a switch at launch: the previous
    /// project's identity and storage are cleared (never carried into this one), its device disable
    /// is kept and delivered, and the journal records it all; gated calls made meanwhile are held
    /// until it lands, as in any switch. Gated calls made before it fail with
    /// `CallFailure.notInitialized`. Calling it again for the project the SDK is on does nothing;
    /// for another project it is a switch.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited): calls made
    /// after it on the same thread are processed after it. `completion`, if given, runs once on
    /// ``SDKConfiguration/callbackQueue``: `CallOutcome.applied(project:)` once the instance is
    /// started (after the teardown of a switch at launch, whose waiting steps are bounded by
    /// `EngineRules`), or `DiscardReason.shutdown`. To await that instead:
    /// `await sdk.outcome.initialize(project)` (``AwaitedCalls/initialize(_:)``).
    public func initialize(_ project: Project, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        post(.initialize(project.reference(endpoints: configuration.regionEndpoints)),
             .project(project, completion.map(CallCompletion.outcome)))
    }

    /// Moves the running SDK to `project`: its key *and* configuration (the live key with another
    /// region, endpoint or auth is a switch too).
    ///
    /// A switch never fails and is never rolled back. Its teardown (disable push and wait for the
    /// disable to be durable, reset in-app and embedded, purge or deliver the outgoing queue, clear
    /// identity and storage, release the instance) waits only within the bounds of `EngineRules`;
    /// calls keep being processed meanwhile: gated calls are held and replayed on `project`, inline
    /// calls run on the outgoing project. A request for the project already requested joins that
    /// switch; switches requested while one runs are queued (at most one entry per project), and
    /// each starts after the previous one's held calls were replayed and its callbacks ran.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited). To await the
    /// result instead: `await sdk.outcome.switchProject(to: project)`
    /// (``AwaitedCalls/switchProject(to:)``). `completion` runs once on
    /// ``SDKConfiguration/callbackQueue``, when the switch lands: `SwitchResult.switchedCleanly`
    /// or `SwitchResult.switchedWithWarnings` (in both cases the SDK is on `project`; a request for
    /// the project the SDK is already on, with no switch running, lands at once, clean); or, if the
    /// SDK shut down first, `SwitchResult.notPerformed` or `SwitchResult.interruptedByShutdown`
    /// (that one finishes at the next launch). The full contract is in docs/ARCHITECTURE.md ("The
    /// switch").
    public func switchProject(to project: Project, completion: @escaping @Sendable (SwitchResult) -> Void) {
        post(.switchProject(project.reference(endpoints: configuration.regionEndpoints)), .project(project, .switchResult(completion)))
    }

    /// What switching is doing now: idle on a project, a switch running (its step, held calls and
    /// queued requests), or a landed switch still releasing its held calls.
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var switchStatus: SwitchStatus { read { $0.switchStatus } }

    /// The switch status as it changes: first the status now (what ``switchStatus`` reads at this
    /// call), then each change, until the SDK shuts down (the stream then finishes).
    ///
    /// Blocks the calling thread as ``switchStatus`` does, so that the first status reflects every
    /// call made before on that thread (an awaited ``AwaitedCalls/initialize(_:)`` that returned
    /// included). Statuses are published by the engine after each take of inputs from the mailbox; the engine
    /// never waits for a reader. A reader that falls more than 256 statuses behind loses the
    /// oldest ones first (it always ends on the latest). Each call returns a new stream; any number may be open.
    public func switchStatusUpdates() -> AsyncStream<SwitchStatus> {
        let status = status
        return read { view in status.stream(startingWith: view.switchStatus) }
    }

    /// Opens a universal link the app was launched with.
    ///
    /// A tracked link (`https://<host>/a/...`) is resolved with one HTTP request, not following its
    /// redirect, into its destination and the campaign, template and message it was sent for (kept
    /// as attribution, as a push open is); any other link resolves at once to itself. Runs against
    /// the project the SDK is on, even during a switch (never held); a resolution that comes back
    /// after that instance was replaced is refused, so its attribution never reaches another
    /// project.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited). To await the
    /// result instead: `await sdk.outcome.handleUniversalLink(url)`
    /// (``AwaitedCalls/handleUniversalLink(_:)``). `completion` runs once on
    /// ``SDKConfiguration/callbackQueue`` with a ``UniversalLinkResult``:
    /// `CallOutcome.applied(project:)` and the destination; or a failure with no destination
    /// (`CallFailure.retriesExhausted(_:)` when the link could not be resolved,
    /// `CallFailure.rejected(_:)` for a URL that is not http(s) or a late resolution,
    /// `CallFailure.notInitialized`); or `DiscardReason.shutdown`. Waits at most for the
    /// request's timeout.
    public func handleUniversalLink(_ url: URL, completion: @escaping @Sendable (UniversalLinkResult) -> Void) {
        let address = url.absoluteString
        post(.handleUniversalLink(url: address), .completion(.link { result in
            var result = result
            if result.destination == nil, case .applied = result.outcome { result.destination = address }
            completion(result)
        }))
    }

    /// Delivers a system notification (e.g. `foreground`) to the modules that asked for it in
    /// ``SDKModule/notificationNames``, in order with the calls made before it on this thread.
    ///
    /// Returns at once, without waiting for room in the mailbox; nothing reports back. Journaled;
    /// ignored after ``shutdown()``. A name longer than `CallLimits.notificationNameBytes` bytes of
    /// UTF-8 is journaled, and heard by the modules, cut to that many, ending in `…`.
    public func notify(_ name: String) {
        mailboxPost(.notificationReceived(FreeText.bounded(name, limit: CallLimits.notificationNameBytes)))
    }

    /// Why the journal is not recording now, or nil when it is.
    ///
    /// After a failed write or sync the SDK keeps working in memory, flushes report what could not
    /// be made durable, and recording resumes, with a journaled gap, once a write succeeds again
    /// (retried after 1 s, doubling up to 60 s). Blocks the calling thread until every call made
    /// before it on that thread was processed. Never read it on the engine thread (a module's
    /// ``SDKModule/process(signal:context:)``): it would wait for itself. Nil after ``shutdown()``.
    public var journalFailure: String? { engineView()?.journalFailure }

    // MARK: - Reads (each sees every call made before it on the same thread)

    /// The user's email (nil when unknown or forgotten).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var email: String? { read { $0.email } }
    /// The user's id (nil when unknown or forgotten).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var userId: String? { read { $0.userID } }
    /// The attribution info of the project the SDK is on (nil when none, or after a switch cleared
    /// it).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var attributionInfo: AttributionInfo? { read { $0.attribution } }
    /// The push token registered with the SDK (kept across logouts; a switch clears it with the
    /// identity).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var pushToken: String? { read { $0.pushToken } }
    /// The fingerprint of the project the SDK is on (nil before initialization; during a switch,
    /// the outgoing project until the new instance starts).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var liveProject: ProjectFingerprint? { read { $0.live } }
    /// The ids of the in-app messages fetched for the project the SDK is on (emptied when a switch
    /// resets in-app).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var inAppMessageIDs: [String] { read { $0.inAppMessageIDs } }
    /// The ids of the embedded messages fetched for the project the SDK is on (emptied when a
    /// switch resets embedded).
    ///
    /// Blocks the calling thread until every call made before this read on that thread was
    /// processed (on the engine thread, a module sees the state as of the last inputs it handled;
    /// after ``shutdown()``, the last state). Never waits for the network or a switch.
    public var embeddedMessageIDs: [String] { read { $0.embeddedMessageIDs } }
}
