import SDKCore

// The privacy calls (consent and erasure), each in its two forms, in the same order: on
// `EngagementSDK`, returning at once with an optional completion, and on `AwaitedCalls`, awaiting
// the outcome. The engine runs them in SDKCore's `SDKState+PrivacyCalls.swift`.
extension EngagementSDK {
    /// Records the user's choice: `.declined` stops every request to every project until
    /// `.granted` again. Journaled, so it survives a relaunch (a new install starts granted).
    ///
    /// While declined:
    /// - every call but `initialize`, `switchProject`, `flush`, `setConsent` and
    ///   `eraseLocalData` resolves at once as `DiscardReason.consentDeclined`, changes nothing,
    ///   and is journaled without its personal and free-text values (which arguments were
    ///   given, data-field keys, ids; never emails, user ids, tokens, URLs, data values);
    /// - declining drops the queued requests (`DiscardReason.consentDeclined`) except the
    ///   disables of a device on a project it left, which wait and are sent once the user
    ///   agrees again; a request already on the wire finishes;
    /// - a switch still runs and lands (its disable of the outgoing device waits as above);
    /// - the identity stays on the device: ``eraseLocalData(completion:)`` removes it.
    ///
    /// Never held by a switch. Outcome: `CallOutcome.applied(project:)` as soon as it is processed.
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/setConsent(_:)``.
    public func setConsent(_ consent: PrivacyConsent, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setConsent(granted: consent == .granted), completion)
    }

    /// Deletes what the device recorded of the user and goes on with no identity: the journal's
    /// segments and snapshots (everything recorded before this call), queued requests (disables
    /// too) and the calls a switch in progress holds (both resolve as `DiscardReason.erased`),
    /// the email, user id and push token, attribution,
    /// events held for an unknown user, stored message ids and cached JWTs. The journal goes on in
    /// a new segment whose first fact says when the erasure happened and how many records it
    /// deleted, never what they held. Consent, the project and the keyring's API keys (not
    /// personal) stay.
    ///
    /// A request already on the wire is erased too: its task leaves the state and the disk now,
    /// it is never sent again, and its answer, whatever it says, is ignored (its calls resolve
    /// as `DiscardReason.erased`). Only a request the server answered before this call counts as
    /// delivered.
    ///
    /// Never held by a switch. Outcome: `CallOutcome.applied(project:)` once the journal is
    /// erased, or `CallFailure.rejected(_:)` saying why it could not be (the journal is out, or
    /// the disk refused to delete a segment even when asked twice: the reason counts the
    /// segments and bytes left, never claiming them erased).
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/eraseLocalData()``.
    public func eraseLocalData(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.eraseLocalData, completion)
    }
}

extension AwaitedCalls {
    /// Records the user's choice, as ``EngagementSDK/setConsent(_:completion:)`` does, and
    /// returns its outcome. Returns as soon as the call is processed; never held by a switch.
    @discardableResult
    public func setConsent(_ consent: PrivacyConsent) async -> CallOutcome {
        await sdk.submit(.setConsent(granted: consent == .granted))
    }

    /// Erases what the device recorded of the user, as ``EngagementSDK/eraseLocalData(completion:)``
    /// does, and returns its outcome. Returns once the journal is erased (or could not be).
    @discardableResult
    public func eraseLocalData() async -> CallOutcome {
        await sdk.submit(.eraseLocalData)
    }
}
