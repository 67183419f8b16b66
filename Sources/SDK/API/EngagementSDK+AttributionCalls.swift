import Foundation
import SDKCore

// The attribution calls (attribution and the tracked links that carry it), each in its two forms,
// in the same order: on `EngagementSDK`, returning at once with an optional completion, and on
// `AwaitedCalls`, awaiting the outcome. The engine runs them in SDKCore's
// `SDKState+AttributionCalls.swift`.
extension EngagementSDK {
    /// Sets (or, with nil, clears) the attribution info of the project the SDK is on.
    ///
    /// Nothing is sent. Inline: runs against the project the SDK is on now, even during a switch;
    /// never held. Outcome: `CallOutcome.applied(project:)`, or `CallFailure.rejected(_:)`
    /// (journaled as refused) when a switch already cleared that project's storage: attribution
    /// never reaches another project.
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/setAttributionInfo(_:)``.
    public func setAttributionInfo(_ info: AttributionInfo?, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.setAttribution(info), completion)
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
}

extension AwaitedCalls {
    /// Sets or clears the attribution info, as ``EngagementSDK/setAttributionInfo(_:completion:)``
    /// does, and returns its outcome.
    ///
    /// Returns as soon as the call is processed. Never held by a switch; never waits for the
    /// network.
    @discardableResult
    public func setAttributionInfo(_ info: AttributionInfo?) async -> CallOutcome {
        await sdk.submit(.setAttribution(info))
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
}
