/// How a public call ended. Every call's completion receives exactly one of these.
public enum CallOutcome: Sendable, Hashable {
    /// The request reached `project`, which answered with `status`.
    case delivered(project: ProjectFingerprint, status: Int)
    /// The call took effect inside the SDK (identity, storage, a held event) for `project`;
    /// nothing was sent for it.
    case applied(project: ProjectFingerprint?)
    /// It will never succeed.
    case failed(CallFailure)
    /// It was dropped on purpose, before it could be delivered.
    case discarded(DiscardReason)
}

/// Why a call failed.
public enum CallFailure: Sendable, Hashable {
    /// The arguments were unusable (the reason names which and why).
    case rejected(String)
    /// The SDK was not initialized when the call was processed.
    case notInitialized
    /// The project answered with a status that retrying cannot fix; `code` and `message` are
    /// what the backend's body said (e.g. `BadApiKey`, "key for region us sent to region eu").
    case httpStatus(Int, code: String?, message: String? = nil)
    /// The project answered 5xx or 429 to every attempt (`RetryRules.maxAttempts` of them); the
    /// last answer, e.g. `5 attempts; last: HTTP 503`. An attempt that got no answer at all is not
    /// counted: such a request waits for the network instead.
    case retriesExhausted(String)
    /// The project's credentials could not be had: the auth provider refused or could not supply
    /// a usable JWT for the request's user, or the request waited aside past the age limit for a
    /// token, an API key or an auth provider the app never gave (the reason says which).
    case authentication(String)
    /// `handleUniversalLink`'s tracked link could not be resolved (no response came, or its host
    /// did not answer with a redirect); it is not tried again: the app opens the link as it is.
    case linkNotResolved(String)
    /// `flush()`: the journal could not make what came before it durable (the disk's error).
    case notDurable(String)
}

/// Why a call was discarded.
public enum DiscardReason: Sendable, Hashable {
    /// `logoutUser` purged the queued request.
    case purgedByLogout
    /// A switch purged the queued request of the project it left.
    case purgedBySwitch(SwitchID)
    /// The outgoing project's events could not be delivered within the switch's bound.
    case undeliveredAtSwitch(SwitchID)
    /// The gate was full while a switch ran.
    case gateFull(capacity: Int)
    /// The delivery queue was full.
    case queueFull(capacity: Int)
    /// The request waited in the offline queue for longer than `EngineRules.deliveryAgeLimitMilliseconds`
    /// (`ageLimit`) without reaching its project.
    case expired(ageLimit: Duration)
    /// The SDK shut down before the call resolved: its completion hears nothing more. A request
    /// already queued for it stays in the offline queue and is sent after the next launch
    /// (`replay audit` shows where it went); a call still held by a switch's gate is dropped.
    case shutdown
    /// The user declined (``PublicCall/setConsent(granted:)``): the call made no request and
    /// changed nothing; a request already queued was dropped when the user declined.
    case consentDeclined
    /// ``PublicCall/eraseLocalData`` deleted the queued request or the held call.
    case erased
}

extension CallOutcome {
    /// A call's outcome as its renderings read it: the outcome of a task that carried the call
    /// (``TaskOutcome``) with the project it was delivered to, or applied, the one outcome no
    /// task has. A new case is asked for here once; the wordings follow the task's outcome.
    package enum Parts: Sendable {
        /// The outcome its task ended with; `deliveredTo` is the project of a `delivered` one.
        case task(TaskOutcome, deliveredTo: ProjectFingerprint?)
        /// The call took effect inside the SDK for `project`; nothing was sent for it.
        case applied(project: ProjectFingerprint?)
    }

    /// This outcome in its parts.
    package var parts: Parts {
        switch self {
        case .delivered(let project, let status): .task(.delivered(status: status), deliveredTo: project)
        case .applied(let project): .applied(project: project)
        case .failed(let failure): .task(.failed(failure), deliveredTo: nil)
        case .discarded(let reason): .task(.discarded(reason), deliveredTo: nil)
        }
    }

    /// The outcome of each call that a task of `project` carried when it ended with `outcome`.
    package init(_ outcome: TaskOutcome, project: ProjectFingerprint) {
        switch outcome {
        case .delivered(let status): self = .delivered(project: project, status: status)
        case .failed(let failure): self = .failed(failure)
        case .discarded(let reason): self = .discarded(reason)
        }
    }
}
