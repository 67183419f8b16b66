import SDKCore

// The identity calls (who the user is), each in its two forms, in the same order: on
// `EngagementSDK`, returning at once with an optional completion, and on `AwaitedCalls`, awaiting
// the outcome. The engine runs them in SDKCore's `SDKState+IdentityCalls.swift`.
extension EngagementSDK {
    /// Sets the user's email (nil forgets it); either way the user id is forgotten.
    ///
    /// Nothing is sent for it. Once the user is known, the events held for an unknown user are sent
    /// and the push token is registered for them. Rejected when `email` is empty, has no `@`, a
    /// control character or more than 1,024 bytes. Gated: during a switch it is held, and runs
    /// against the new project when the switch lands. Outcome: `CallOutcome.applied(project:)` as
    /// soon as it is processed.
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/setEmail(_:)``.
    public func setEmail(_ email: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setEmail(email), completion)
    }

    /// Sets the user's id (nil forgets it); either way the email is forgotten.
    ///
    /// Nothing is sent for it. Once the user is known, the events held for an unknown user are sent
    /// and the push token is registered for them. Rejected when `userId` is empty, has a control
    /// character or more than 1,024 bytes. Gated: during a switch it is held, and runs against the
    /// new project when the switch lands. Outcome: `CallOutcome.applied(project:)` as soon as it
    /// is processed.
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/setUserId(_:)``.
    public func setUserId(_ userId: String?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setUserId(userId), completion)
    }

    /// Changes the user's email on the platform (`users/updateEmail`).
    ///
    /// The SDK follows the new email when the call is processed, not when the platform answers.
    /// Rejected, with nothing sent, when no user is identified or `newEmail` is not a usable email.
    /// Gated: during a switch it is held, and runs against the new project when the switch lands.
    /// Outcomes: `CallOutcome.delivered(project:status:)` once the project answered 2xx, else a
    /// failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/updateEmail(_:)``.
    public func updateEmail(_ newEmail: String, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateEmail(newEmail), completion)
    }

    /// Updates the user's profile fields (`users/update`), merging nested objects unless told not
    /// to.
    ///
    /// Rejected, with nothing sent, when no user is identified or the fields encode to more than 64
    /// KiB of JSON. Gated: during a switch it is held, and runs against the new project when the
    /// switch lands. Outcomes: `CallOutcome.delivered(project:status:)` once the project answered
    /// 2xx, else a failure or discard as for every request (``EngagementSDK``, "Outcomes").
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form:
    /// ``AwaitedCalls/updateUser(dataFields:mergeNestedObjects:)``.
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects), completion)
    }

    /// Logs the user out: disables the device, purges queued requests, forgets the user.
    ///
    /// Modules hear `ModuleSignal.willLogout` (awaited on their own tasks, within their bound;
    /// this call does not wait for them). Queued requests other than disables resolve as
    /// `DiscardReason.purgedByLogout`; for a known user with a push token the SDK queues its own
    /// `users/disableDevice`. Gated: during a switch it is held, and runs against the new project
    /// when the switch lands. Outcome: `CallOutcome.applied(project:)` as soon as it is
    /// processed, not when the disable is delivered.
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/logoutUser()``.
    public func logoutUser(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.logoutUser, completion)
    }
}

extension AwaitedCalls {
    /// Sets the user's email, as ``EngagementSDK/setEmail(_:completion:)`` does, and returns its
    /// outcome.
    ///
    /// Returns once the call is processed; during a switch, once the switch landed and the call
    /// ran on the new project. Never waits for the network.
    @discardableResult
    public func setEmail(_ email: String?) async -> CallOutcome {
        await sdk.submit(.setEmail(email))
    }

    /// Sets the user's id, as ``EngagementSDK/setUserId(_:completion:)`` does, and returns its
    /// outcome.
    ///
    /// Returns once the call is processed; during a switch, once the switch landed and the call
    /// ran on the new project. Never waits for the network.
    @discardableResult
    public func setUserId(_ userId: String?) async -> CallOutcome {
        await sdk.submit(.setUserId(userId))
    }

    /// Changes the user's email on the platform, as ``EngagementSDK/updateEmail(_:completion:)``
    /// does, and returns its outcome.
    ///
    /// Returns once the outcome is decided: after the project's last answer to the request (its
    /// retries included; while offline that may be minutes or hours), not before a running switch
    /// landed; as soon as it is processed when rejected. Don't await it on a path the user waits
    /// on.
    @discardableResult
    public func updateEmail(_ newEmail: String) async -> CallOutcome {
        await sdk.submit(.updateEmail(newEmail))
    }

    /// Updates the user's profile fields, as
    /// ``EngagementSDK/updateUser(dataFields:mergeNestedObjects:completion:)`` does, and returns
    /// its outcome.
    ///
    /// Returns once the outcome is decided: after the project's last answer to the request (its
    /// retries included; while offline that may be minutes or hours), not before a running switch
    /// landed; as soon as it is processed when rejected. Don't await it on a path the user waits
    /// on.
    @discardableResult
    public func updateUser(dataFields: [String: DataValue], mergeNestedObjects: Bool = true) async -> CallOutcome {
        await sdk.submit(.updateUser(dataFields: dataFields, mergeNestedObjects: mergeNestedObjects))
    }

    /// Logs the user out, as ``EngagementSDK/logoutUser(completion:)`` does, and returns its
    /// outcome.
    ///
    /// Returns once the call is processed; during a switch, once the switch landed and the call
    /// ran on the new project. Waits neither for the disable it queues nor for the modules' hooks.
    @discardableResult
    public func logoutUser() async -> CallOutcome {
        await sdk.submit(.logoutUser)
    }
}
