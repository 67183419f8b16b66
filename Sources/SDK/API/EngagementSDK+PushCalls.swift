import SDKCore

// The push calls (the push token and push opens), each in its two forms, in the same order: on
// `EngagementSDK`, returning at once with an optional completion, and on `AwaitedCalls`, awaiting
// the outcome. The engine runs them in SDKCore's `SDKState+PushCalls.swift`.
extension EngagementSDK {
    /// Registers the device's push token (`users/registerDeviceToken`).
    ///
    /// The SDK keeps the token at once. For a known user it is sent now (outcome as for every
    /// request); for an unknown user the call completes at once as
    /// `CallOutcome.applied(project:)` and the token is registered, by the SDK itself, once the
    /// user is identified. Gated: during a switch it is held, and runs against the new project when
    /// the switch lands.
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/registerToken(_:)``.
    public func registerToken(_ token: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.registerToken(token), completion)
    }

    /// Disables the device's push token for the user (`users/disableDevice`).
    ///
    /// Rejected, with nothing sent, when no push token is registered. Never discarded for a full
    /// delivery queue, nor purged by a logout or a switch. Gated: during a switch it is held, and
    /// runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/disableDevice()``.
    public func disableDevice(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.disableDevice, completion)
    }

    /// Tracks that the user opened a push (`events/trackPushOpen`).
    ///
    /// A push that names its campaign and template also becomes the project's attribution. Inline:
    /// runs against the project the SDK is on now, even during a switch; never held. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/trackPushOpen(_:)``.
    public func trackPushOpen(_ open: PushOpen, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPushOpen(open), completion)
    }

    /// Handles a push payload: its `itbl` block (campaign, template, message) is tracked as an open
    /// and kept as attribution.
    ///
    /// A payload without an `itbl` message id completes at once as
    /// `CallOutcome.applied(project:)`, with nothing sent. Inline: runs against the project the
    /// SDK is on now, even during a switch; never held. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/handlePush(payload:)``.
    public func handlePush(payload: [String: DataValue], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.handlePush(payload: payload), completion)
    }
}

extension AwaitedCalls {
    /// Registers the device's push token, as ``EngagementSDK/registerToken(_:completion:)`` does,
    /// and returns its outcome.
    ///
    /// Returns once the outcome is decided: for a known user, after the project's last answer to
    /// the request (its retries included; while offline that may be minutes or hours); for an
    /// unknown user, as soon as the call is processed; never before a running switch landed.
    @discardableResult
    public func registerToken(_ token: String) async -> CallOutcome {
        await sdk.submit(.registerToken(token))
    }

    /// Disables the device's push token for the user, as
    /// ``EngagementSDK/disableDevice(completion:)`` does, and returns its outcome.
    ///
    /// Returns once the outcome is decided: after the project's last answer to the request (its
    /// retries included; while offline that may be minutes or hours), not before a running switch
    /// landed; as soon as it is processed when rejected.
    @discardableResult
    public func disableDevice() async -> CallOutcome {
        await sdk.submit(.disableDevice)
    }

    /// Tracks that the user opened a push, as ``EngagementSDK/trackPushOpen(_:completion:)`` does,
    /// and returns its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackPushOpen(_ open: PushOpen) async -> CallOutcome {
        await sdk.submit(.trackPushOpen(open))
    }

    /// Handles a push payload, as ``EngagementSDK/handlePush(payload:completion:)`` does, and
    /// returns its outcome.
    ///
    /// Returns after the project's last answer to the open it tracks (its retries included; while
    /// offline that may be minutes or hours), or as soon as it is processed for a payload with
    /// nothing to track. Never held by a switch.
    @discardableResult
    public func handlePush(payload: [String: DataValue]) async -> CallOutcome {
        await sdk.submit(.handlePush(payload: payload))
    }
}
