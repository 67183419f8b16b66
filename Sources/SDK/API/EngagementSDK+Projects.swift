import Foundation
import SDKCore

extension EngagementSDK {
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
