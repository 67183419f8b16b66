import SDKCore

// The message calls (in-app and embedded messages), each in its two forms, in the same order: on
// `EngagementSDK`, returning at once with an optional completion, and on `AwaitedCalls`, awaiting
// the outcome. The engine runs them in SDKCore's `SDKState+MessageCalls.swift`.
extension EngagementSDK {
    /// Fetches up to `count` in-app messages (`inApp/getMessages`); their ids are then in
    /// ``inAppMessageIDs``.
    ///
    /// Rejected when `count` is outside 1...100. Messages that arrive after the instance that asked
    /// was replaced by a switch are not kept. Gated: during a switch it is held, and runs against
    /// the new project when the switch lands. Outcomes: `CallOutcome.delivered(project:status:)`
    /// once the project answered 2xx, else a failure or discard as for every request
    /// (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/fetchInAppMessages(count:)``.
    public func fetchInAppMessages(count: Int = 10, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppFetch(count: count), completion)
    }

    /// Tracks that an in-app message was opened (`events/trackInAppOpen`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/trackInAppOpen(messageID:)``.
    public func trackInAppOpen(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppOpen(messageID: messageID), completion)
    }

    /// Tracks a click on `url` in an in-app message (`events/trackInAppClick`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/trackInAppClick(messageID:url:)``.
    public func trackInAppClick(messageID: String, url: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClick(messageID: messageID, url: url), completion)
    }

    /// Tracks that an in-app message was closed, by a click on `url` if given
    /// (`events/trackInAppClose`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/trackInAppClose(messageID:url:)``.
    public func trackInAppClose(messageID: String, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppClose(messageID: messageID, url: url), completion)
    }

    /// Tracks that an in-app message was delivered (`events/trackInAppDelivery`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/trackInAppDelivery(messageID:)``.
    public func trackInAppDelivery(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppDelivery(messageID: messageID), completion)
    }

    /// Consumes (removes) an in-app message on the platform (`events/inAppConsume`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/inAppConsume(messageID:)``.
    public func inAppConsume(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.inAppConsume(messageID: messageID), completion)
    }

    /// Fetches embedded messages (`embedded-messaging/messages`); their ids are then in
    /// ``embeddedMessageIDs``.
    ///
    /// Messages that arrive after the instance that asked was replaced by a switch are not kept.
    /// Gated: during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/fetchEmbeddedMessages()``.
    public func fetchEmbeddedMessages(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedFetch, completion)
    }

    /// Tracks that an embedded message was received (`embedded-messaging/events/received`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/trackEmbeddedReceived(messageID:)``.
    public func trackEmbeddedReceived(messageID: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedReceived(messageID: messageID), completion)
    }

    /// Tracks a click on an embedded message, its button and target if given
    /// (`embedded-messaging/events/click`).
    ///
    /// Inline: runs against the project the SDK is on now, even during a switch; never held.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/trackEmbeddedClick(messageID:buttonID:url:)``.
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url), completion)
    }
}

extension AwaitedCalls {
    /// Fetches in-app messages, as ``EngagementSDK/fetchInAppMessages(count:completion:)`` does,
    /// and returns its outcome; the messages' ids are then in ``EngagementSDK/inAppMessageIDs``.
    ///
    /// Returns once the outcome is decided: after the project's last answer to the request (its
    /// retries included; while offline that may be minutes or hours), not before a running switch
    /// landed; as soon as it is processed when rejected.
    @discardableResult
    public func fetchInAppMessages(count: Int = 10) async -> CallOutcome {
        await sdk.submit(.inAppFetch(count: count))
    }

    /// Tracks that an in-app message was opened, as
    /// ``EngagementSDK/trackInAppOpen(messageID:completion:)`` does, and returns its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackInAppOpen(messageID: String) async -> CallOutcome {
        await sdk.submit(.inAppOpen(messageID: messageID))
    }

    /// Tracks a click in an in-app message, as
    /// ``EngagementSDK/trackInAppClick(messageID:url:completion:)`` does, and returns its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackInAppClick(messageID: String, url: String) async -> CallOutcome {
        await sdk.submit(.inAppClick(messageID: messageID, url: url))
    }

    /// Tracks that an in-app message was closed, as
    /// ``EngagementSDK/trackInAppClose(messageID:url:completion:)`` does, and returns its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackInAppClose(messageID: String, url: String? = nil) async -> CallOutcome {
        await sdk.submit(.inAppClose(messageID: messageID, url: url))
    }

    /// Tracks that an in-app message was delivered, as
    /// ``EngagementSDK/trackInAppDelivery(messageID:completion:)`` does, and returns its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackInAppDelivery(messageID: String) async -> CallOutcome {
        await sdk.submit(.inAppDelivery(messageID: messageID))
    }

    /// Consumes an in-app message on the platform, as
    /// ``EngagementSDK/inAppConsume(messageID:completion:)`` does, and returns its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func inAppConsume(messageID: String) async -> CallOutcome {
        await sdk.submit(.inAppConsume(messageID: messageID))
    }

    /// Fetches embedded messages, as ``EngagementSDK/fetchEmbeddedMessages(completion:)`` does,
    /// and returns its outcome; the messages' ids are then in
    /// ``EngagementSDK/embeddedMessageIDs``.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours), not before a running switch landed.
    @discardableResult
    public func fetchEmbeddedMessages() async -> CallOutcome {
        await sdk.submit(.embeddedFetch)
    }

    /// Tracks that an embedded message was received, as
    /// ``EngagementSDK/trackEmbeddedReceived(messageID:completion:)`` does, and returns its
    /// outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackEmbeddedReceived(messageID: String) async -> CallOutcome {
        await sdk.submit(.embeddedReceived(messageID: messageID))
    }

    /// Tracks a click on an embedded message, as
    /// ``EngagementSDK/trackEmbeddedClick(messageID:buttonID:url:completion:)`` does, and returns
    /// its outcome.
    ///
    /// Returns after the project's last answer to the request (its retries included; while
    /// offline that may be minutes or hours). Never held by a switch.
    @discardableResult
    public func trackEmbeddedClick(messageID: String, buttonID: String? = nil, url: String? = nil) async -> CallOutcome {
        await sdk.submit(.embeddedClick(messageID: messageID, buttonID: buttonID, url: url))
    }
}
