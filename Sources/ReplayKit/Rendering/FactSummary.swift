import Journal
import SDK

/// One line of words for a fact: its kind's name, then what it says.
///
/// `callReceived track "app_open" {source} (call 00000003)`,
/// `gateDecided 00000003 queued behind s1 at #0`, `switchLanded s1 on 9a1b… switchedCleanly`.
package enum FactSummary {
    /// The line for `record`; projects named only by fingerprint get their label from `labels`.
    package static func text(_ record: DecodedRecord, labels: ProjectLabels = ProjectLabels()) -> String {
        switch record.content {
        case .snapshot(let state):
            return "snapshot (state: \(state.live.map(Describe.project) ?? "not initialized"), "
                + "\(state.pendingCalls.count) pending call(s), \(state.tasks.count) queued task(s))"
        case .fact(let fact):
            return text(fact, labels: labels)
        case .unreadable(let reason):
            return "\(record.kindName) (unreadable: \(reason))"
        }
    }

    package static func text(_ fact: Fact, labels: ProjectLabels = ProjectLabels()) -> String {
        if case .unknown(let kind, let payload) = fact {
            return "unknown kind \(kind) (\(payload.count) B from a newer SDK, skipped)"
        }
        let kind = FactKind(rawValue: FactCodec.kind(of: fact))?.name ?? "kind \(FactCodec.kind(of: fact))"
        let detail = details(fact, labels: labels)
        return detail.isEmpty ? kind : kind + " " + detail
    }

    /// The words after the kind name.
    static func details(_ fact: Fact, labels: ProjectLabels = ProjectLabels()) -> String {
        switch fact {
        case .engineStarted(let start):
            let modules = start.modules.map(\.name).joined(separator: ", ")
            return "sdk \(start.sdkVersion)\(start.restored ? ", restored" : ", fresh journal")"
                + (modules.isEmpty ? ", no modules" : ", modules \(modules)")
        case .callReceived(let received):
            return "\(Describe.call(received.call)) (call \(received.id))"
        case .transportCompleted(let completion):
            return "\(completion.task) attempt \(completion.attempt): \(Describe.transport(completion.outcome))"
                + (completion.refusedEvents.isEmpty ? "" : ", \(completion.refusedEvents.count) event(s) refused")
                + (completion.droppedMessageIDs == 0 ? "" : ", \(completion.droppedMessageIDs) message(s) dropped (past what was asked for, or ids over \(CallLimits.identifierBytes) bytes)")
        case .timerFired(let timer):
            return Describe.timer(timer)
        case .durabilityConfirmed(let confirmation):
            return "#\(confirmation.request)" + (confirmation.failure.map { " failed: \($0)" } ?? "")
        case .moduleHookCompleted(let completion):
            return "#\(completion.hook)" + (completion.failure.map { " failed: \($0)" } ?? "")
        case .authTokenReceived(let receipt):
            return "#\(receipt.request) for \(labels.name(receipt.project))" + (receipt.failure.map { " failed: \($0)" } ?? "")
        case .callbacksDelivered(let id):
            return "\(id)"
        case .notificationReceived(let name):
            return name
        case .engineStopping:
            return "the app shut the SDK down"
        case .networkReachable:
            return "the app said the network is reachable"
        case .localDataErased(let erasure):
            let erased = erasure.erased
            let (segments, bytes) = (UInt64(truncatingIfNeeded: erased.segments), UInt64(truncatingIfNeeded: erased.bytes))
            if let failure = erased.failure, erased.segmentsLeft != 0 {
                return "\(segments) segment(s), \(bytes) bytes erased on request; \(failure)" + (erasure.call.map { " (call \($0))" } ?? "")
            }
            if let failure = erased.failure { return "the journal could not be erased: \(failure)" }
            let range = erased.records > 0 ? " (seq \(erased.firstSequence)–\(erased.lastSequence))" : ""
            return "\(erased.records) record(s)\(range) erased on request, \(segments) segment(s), \(bytes) bytes"
                + (erasure.call.map { " (call \($0))" } ?? "")
        case .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded:
            return Describe.background(fact) ?? ""
        case .storageWasUnavailable, .keyringWriteFailed:
            return Describe.storage(fact) ?? ""
        case .clockJumped(let wall, let jump):
            return "the device's clock jumped \(Describe.clockJump(microseconds: jump)): it reads \(wall); "
                + "the journal's time runs on the monotonic clock and did not jump"
        case .linkResolved(let resolution):
            if let failure = resolution.failure { return "job #\(resolution.job) failed: \(failure)" }
            return "job #\(resolution.job) to \(resolution.destination ?? "nowhere")"
                + (resolution.attribution.map { ", " + Describe.attribution($0) } ?? "")
        case .journalGap(let gap):
            let sequence = gap.firstLostSequence.map { " (from seq \($0))" } ?? ""
            return "\(gap.lostFacts) fact(s) not recorded from \(gap.from) to \(gap.to)\(sequence): \(gap.reason)"
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            return "job #\(job) \(url) for \(labels.name(project)), generation \(generation) (call \(call))"
        case .staleResultRefused(let job, let what, let startedIn, let current):
            return "#\(job) \(what): started in generation \(startedIn), now \(current)"
        case .switchCancelled(let id, let reason):
            return "\(id): \(reason)"

        case .initialized(let project, let generation):
            return "on \(Describe.project(project)), generation \(generation)"
        case .gateDecided(let call, let decision):
            return "\(call) \(Describe.decision(decision, labels: labels))"
        case .callRejected(let call, let reason):
            return "\(call): \(reason)"
        case .identityChanged(let email, let userID):
            return "email \(Describe.optionalQuoted(email)), userId \(Describe.optionalQuoted(userID))"
        case .pushTokenChanged(let token):
            return Describe.optionalQuoted(token)
        case .attributionChanged(let project, let info):
            return "\(labels.name(project)) " + (info.map(Describe.attribution) ?? "cleared")
        case .attributionRefused(let project, let reason):
            return "\(labels.name(project)): \(reason)"
        case .unknownUserEventHeld(let project, let call, let event):
            return "\(labels.name(project)) \(Describe.call(event)) (call \(call))"
        case .unknownUserEventsReleased(let project), .unknownUserSessionCounted(let project):
            return labels.name(project)
        case .taskQueued(let task):
            return "\(task.id) \(Describe.request(task)) for \(labels.name(task.project)) (\(task.region))"
                + (task.user.map { " for user \($0.value)" } ?? "") + (task.call.map { " (call \($0))" } ?? "")
        case .eventBatched(let task, let event, let executedOn):
            // With the gate's decision when it travels here (format 1.3), worded as a gateDecided's.
            let gate = executedOn.map { " \(Describe.decision(.executed(project: $0), labels: labels))," } ?? ""
            return "call \(event.call)\(gate) joins \(task) (sent as \(DeliveryTask.bulkTrackPath))"
        case .taskDispatched(let task, let attempt):
            return "\(task) attempt \(attempt)"
        case .retryScheduled(let task, let attempt, let due, let reason):
            return "\(task) attempt \(attempt) due \(due): \(Describe.retryReason(reason))"
        case .taskCompleted(let task, let outcome):
            return "\(task) \(Describe.taskOutcome(outcome))"
        case .disableCoalesced(let task, let call):
            return "call \(call) asks for the disable \(task) already queued: it resolves with it"
        case .eventsExpired(let task, let calls):
            return "\(task) goes on without the events of \(calls.map(\.description).joined(separator: ", ")): they waited past the age limit"
        case .timerSet(let timer, let due):
            return "\(Describe.timer(timer)) due \(due)"
        case .callResolved(let call, let outcome):
            return "\(call) \(Describe.outcome(outcome, labels: labels))"
        case .callsResolved(let task, let calls, let outcome):
            // Every call named, so a search for a call's id finds where it ended.
            return "\(calls.count) calls of \(task) \(Describe.outcome(outcome, labels: labels)): " + calls.map(\.description).joined(separator: " ")
        case .authRefreshRequested(let project, let request):
            return "#\(request) for \(labels.name(project))"
        case .authRefreshFinished(let project, let request, let failure):
            return "#\(request) for \(labels.name(project))" + (failure.map { " failed: \($0)" } ?? "")
        case .moduleEventDelivered(let module, let event, let project, let generation):
            return "\(module) \(event.label) (\(labels.name(project)), generation \(generation))"
        case .moduleHookStarted(let hook, let module, let event):
            return "#\(hook) \(module) \(event.label)"
        case .moduleHookFinished(let hook, let problem):
            return "#\(hook) " + (problem.map { "with a problem: \($0)" } ?? "ok")
        case .messagesStored(let kind, let project, let ids):
            return "\(kind.rawValue) for \(labels.name(project)): \(ids.count) message(s)"
        case .storageCleared(let project, let scope):
            return "\(labels.name(project)) \(scope.rawValue)"
        case .durabilityRequested(let request, let purpose):
            return "#\(request) for \(Describe.durabilityWait(purpose))"
        case .switchRouted(let id, let call, let project, let routing):
            return "\(id) to \(Describe.project(project)): \(Describe.routing(routing)) (call \(call))"
        case .switchStarted(let id, let from, let to):
            return "\(id) from \(labels.name(from)) to \(Describe.project(to))"
        case .teardownStepBegan(let id, let step):
            return "\(id) \(step.rawValue)"
        case .teardownStepFinished(let id, let step, let outcome, let elapsed):
            return "\(id) \(step.rawValue): \(Describe.stepOutcome(outcome)) after \(Format.duration(microseconds: elapsed))"
        case .switchLanded(let id, let project, let result, let reasons):
            return "\(id) on \(labels.name(project)): \(Describe.result(result))"
                + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")")
        case .unknown(_, let payload):
            return "\(payload.count) B from a newer SDK, skipped"
        }
    }
}
