import SDKCore

// The event calls (events and commerce), each in its two forms, in the same order: on
// `EngagementSDK`, returning at once with an optional completion, and on `AwaitedCalls`, awaiting
// the outcome. The engine runs them in SDKCore's `SDKState+EventCalls.swift`.
extension EngagementSDK {
    /// Replaces the user's cart (`commerce/updateCart`).
    ///
    /// For an unknown user it is held (at most 100 such events; more are discarded as
    /// `DiscardReason.queueFull(capacity:)`) and completes at once as
    /// `CallOutcome.applied(project:)`; it is sent once ``setEmail(_:completion:)`` or
    /// ``setUserId(_:completion:)`` identifies the user. Gated: during a switch it is held, and
    /// runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/updateCart(items:)``.
    public func updateCart(items: [CommerceItem], completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateCart(items: items), completion)
    }

    /// Tracks a purchase (`commerce/trackPurchase`).
    ///
    /// Rejected when `total` is negative or not finite, or an item is unusable. For an unknown user
    /// it is held (at most 100 such events) and completes at once as
    /// `CallOutcome.applied(project:)`; it is sent once the user is identified. Gated: during a
    /// switch it is held, and runs against the new project when the switch lands. Outcomes:
    /// `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a failure or
    /// discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/trackPurchase(total:items:dataFields:)``.
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.trackPurchase(total: total, items: items, dataFields: dataFields), completion)
    }

    /// Tracks a custom event (`events/track`).
    ///
    /// Rejected when `event` is empty, too long or has a control character, or the fields encode to
    /// more than 64 KiB. For an unknown user it is held (at most 100 such events) and completes at
    /// once as `CallOutcome.applied(project:)`; it is sent once the user is identified. Gated:
    /// during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/track(_:dataFields:)``.
    public func track(_ event: String, dataFields: [String: DataValue]? = nil, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.track(event: event, dataFields: dataFields), completion)
    }
}

extension AwaitedCalls {
    /// Replaces the user's cart, as ``EngagementSDK/updateCart(items:completion:)`` does, and
    /// returns its outcome.
    ///
    /// Returns once the outcome is decided: for a known user, after the project's last answer to
    /// the request (its retries included; while offline that may be minutes or hours); for an
    /// unknown user, as soon as the event is held; never before a running switch landed. Don't
    /// await it on a path the user waits on.
    @discardableResult
    public func updateCart(items: [CommerceItem]) async -> CallOutcome {
        await sdk.submit(.updateCart(items: items))
    }

    /// Tracks a purchase, as ``EngagementSDK/trackPurchase(total:items:dataFields:completion:)``
    /// does, and returns its outcome.
    ///
    /// Returns once the outcome is decided: for a known user, after the project's last answer to
    /// the request (its retries included; while offline that may be minutes or hours); for an
    /// unknown user, as soon as the event is held; never before a running switch landed. Don't
    /// await it on a path the user waits on.
    @discardableResult
    public func trackPurchase(total: Double, items: [CommerceItem], dataFields: [String: DataValue]? = nil) async -> CallOutcome {
        await sdk.submit(.trackPurchase(total: total, items: items, dataFields: dataFields))
    }

    /// Tracks a custom event, as ``EngagementSDK/track(_:dataFields:completion:)`` does, and
    /// returns its outcome.
    ///
    /// Returns once the outcome is decided: for a known user, after the project answered (its
    /// retries included; while offline that may be minutes or hours); for an unknown user, as soon
    /// as the event is held; never before a running switch landed. Don't await it on a path the
    /// user waits on: `sdk.track(_:)` returns at once.
    @discardableResult
    public func track(_ event: String, dataFields: [String: DataValue]? = nil) async -> CallOutcome {
        await sdk.submit(.track(event: event, dataFields: dataFields))
    }
}
