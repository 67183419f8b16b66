import Foundation
import SDKCore

/// The calls of an ``EngagementSDK`` in the form that awaits their outcome: ``EngagementSDK/outcome``.
///
/// `await sdk.outcome.track("cart_viewed")` makes the same call as `sdk.track("cart_viewed")` and
/// returns the value that call's completion would receive. Each method posts its call before it
/// suspends (the call keeps its place among the calls made before and after it by the awaiting
/// code), then waits until the outcome is decided and journaled. What that takes depends on the
/// call, and each method says it: some return as soon as the call is processed, a request waits
/// for the project's answer (minutes or hours while offline), a switch until it lands.
///
/// Await them where the outcome is needed before going on, never on a path the user waits on:
/// the calls on ``EngagementSDK`` itself return at once in any context. Cancelling the awaiting
/// task neither cancels the call nor ends the wait. Made after ``EngagementSDK/shutdown()``, a call
/// returns at once, with the outcome the completion form reports then.
public struct AwaitedCalls: Sendable {
    /// The SDK the calls are made on.
    let sdk: EngagementSDK

    // MARK: - Identity and profile

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

    // MARK: - Commerce and events

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

    // MARK: - Push

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

    /// Logs the user out, as ``EngagementSDK/logoutUser(completion:)`` does, and returns its
    /// outcome.
    ///
    /// Returns once the call is processed; during a switch, once the switch landed and the call
    /// ran on the new project. Waits neither for the disable it queues nor for the modules' hooks.
    @discardableResult
    public func logoutUser() async -> CallOutcome {
        await sdk.submit(.logoutUser)
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

    // MARK: - In-app messages

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

    // MARK: - Embedded messages

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

    // MARK: - Attribution, durability

    /// Sets or clears the attribution info, as ``EngagementSDK/setAttributionInfo(_:completion:)``
    /// does, and returns its outcome.
    ///
    /// Returns as soon as the call is processed. Never held by a switch; never waits for the
    /// network.
    @discardableResult
    public func setAttributionInfo(_ info: AttributionInfo?) async -> CallOutcome {
        await sdk.submit(.setAttribution(info))
    }

    /// Waits until every call made before it is durable in the journal, as
    /// ``EngagementSDK/flush(completion:)`` does, and returns its outcome.
    ///
    /// Returns once the journal synced them (group commit) or failed to; never waits for the
    /// network, and is never held by a switch.
    @discardableResult
    public func flush() async -> CallOutcome {
        await sdk.submit(.flush)
    }

    // MARK: - Privacy

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

    // MARK: - Projects

    /// Starts the SDK on `project`, as ``EngagementSDK/initialize(_:completion:)`` does, and
    /// returns its outcome.
    ///
    /// Returns once the instance is started: as soon as the call is processed, or, when the
    /// journal was last on another project, after that switch at launch's teardown (its waiting
    /// steps bounded by `EngineRules`). Never waits for the network beyond those bounds.
    @discardableResult
    public func initialize(_ project: Project) async -> CallOutcome {
        await withCheckedContinuation { continuation in
            sdk.initialize(project) { continuation.resume(returning: $0) }
        }
    }

    /// Moves the SDK to `project`, as ``EngagementSDK/switchProject(to:completion:)`` does, and
    /// returns the result.
    ///
    /// Returns when the switch lands: after the switches requested before it and its own teardown
    /// (each waiting step bounded by `EngineRules`); at once for the project the SDK is on with no
    /// switch running, and after ``EngagementSDK/shutdown()``.
    @discardableResult
    public func switchProject(to project: Project) async -> SwitchResult {
        await withCheckedContinuation { continuation in
            sdk.switchProject(to: project) { continuation.resume(returning: $0) }
        }
    }

    /// Opens a universal link, as ``EngagementSDK/handleUniversalLink(_:completion:)`` does, and
    /// returns what it resolved to.
    ///
    /// Returns once the link is resolved: as soon as the call is processed for a link that is not
    /// tracked; for a tracked one after its one request, at most the request's timeout. Never held
    /// by a switch.
    @discardableResult
    public func handleUniversalLink(_ url: URL) async -> UniversalLinkResult {
        await withCheckedContinuation { continuation in
            sdk.handleUniversalLink(url) { continuation.resume(returning: $0) }
        }
    }

    // MARK: - Diagnostics

    /// Writes a redacted, size-bounded copy of the journal into `directory`, as
    /// ``EngagementSDK/exportDiagnostics(to:byteBudget:completion:)`` does, and returns what it
    /// wrote. Throws ``DiagnosticsExportError``.
    ///
    /// Returns once the copy is written: after a flush of the calls made before it and the copy
    /// itself, on disk only; never waits for the network.
    @discardableResult
    public func exportDiagnostics(to directory: String,
                                  byteBudget: Int = EngagementSDK.defaultDiagnosticsByteBudget) async throws -> DiagnosticsExport {
        try await withCheckedThrowingContinuation { continuation in
            sdk.exportDiagnostics(to: directory, byteBudget: byteBudget) { continuation.resume(with: $0) }
        }
    }
}
