import Journal

extension SDKState {
    /// Runs `setAttribution(info)` (``CallFamily/attribution``; part of ``execute(_:on:_:)``):
    /// refused when the project's storage was cleared by a switch.
    mutating func executeSetAttribution(_ info: AttributionInfo?, _ id: CallID, on project: ProjectRef, _ decisions: inout InputDecisions) {
        if writeAttribution(info, for: project.fingerprint, &decisions) {
            resolve(id, .applied(project: project.fingerprint), &decisions)
        } else {
            resolve(id, .failed(.rejected("attribution refused: the project's storage was cleared by a switch")), &decisions)
        }
    }

    /// Runs `handleUniversalLink(url)` (``CallFamily/attribution``; part of
    /// ``execute(_:on:_:)``): a tracked link's redirect is asked for; any other link is applied
    /// as it is.
    mutating func executeHandleUniversalLink(_ url: String, _ id: CallID, on project: ProjectRef, _ decisions: inout InputDecisions) {
        guard Self.isTrackedLink(url) else {
            // Not a tracked link: the app opens it as it is.
            resolve(id, .applied(project: project.fingerprint), &decisions)
            return
        }
        emit(.linkResolutionStarted(job: takeRequestNumber(), call: id, url: url, project: project.fingerprint, generation: generation), &decisions)
    }

    /// Whether `url` is a tracked link (`https://<links host>/a/<code>`): its redirect carries
    /// the destination and the campaign, template and message it was sent for.
    static func isTrackedLink(_ url: String) -> Bool {
        (url.hasPrefix("https://") || url.hasPrefix("http://")) && url.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3).first == "a"
    }

    /// A tracked link's resolution came back (`job`, looked up before the input was applied).
    /// Refused when the instance that asked is gone; otherwise its attribution is written (and
    /// refused, as any write, when the project's storage was cleared).
    mutating func handleLinkResolution(_ resolution: LinkResolution, job: LinkJob?, _ decisions: inout InputDecisions) {
        guard let job else { return }
        guard job.generation == generation, live?.fingerprint == job.project else {
            emit(.staleResultRefused(job: resolution.job, what: "resolution of link \(job.url)", startedIn: job.generation, current: generation), &decisions)
            resolve(job.call, .failed(.rejected("the link resolved after the instance that asked for it was replaced (generation \(job.generation), now \(generation)); its attribution was not applied")), &decisions)
            return
        }
        if let failure = resolution.failure {
            resolve(job.call, .failed(.linkNotResolved(failure)), &decisions)
        } else if let attribution = resolution.attribution, !writeAttribution(attribution, for: job.project, &decisions) {
            resolve(job.call, .failed(.rejected("attribution refused: the project's storage was cleared by a switch")), &decisions)
        } else {
            resolve(job.call, .applied(project: job.project), &decisions)
        }
    }

    /// Writes attribution for `project`; refused (and journaled so) when that project's storage
    /// was already cleared by a switch, or it is no longer the project the SDK is on. The write
    /// and the clear are ordered by the mailbox: there is no check-then-act.
    @discardableResult
    mutating func writeAttribution(_ info: AttributionInfo?, for project: ProjectFingerprint, _ decisions: inout InputDecisions) -> Bool {
        if clearedProjects.contains(project) || live?.fingerprint != project {
            emit(.attributionRefused(project: project, reason: "the project's storage was cleared by a switch"), &decisions)
            return false
        }
        emit(.attributionChanged(project: project, info: info), &decisions)
        return true
    }
}
