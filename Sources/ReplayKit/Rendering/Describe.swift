import Journal
import SDK

/// Short, readable renderings of the SDK's values, for one-line summaries.
///
/// Projects appear as their fingerprint (16 hex digits), with the region when known; calls by
/// the last eight hex digits of their id; tasks as `t<n>`, switches as `s<n>`.
package enum Describe {
    /// `US 1a2b3c4d5e6f7a8b (us)`: the label first when the project has one.
    static func project(_ project: ProjectRef) -> String {
        project.description
    }

    static func project(_ fingerprint: ProjectFingerprint?) -> String {
        fingerprint?.hex ?? "-"
    }

    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                output += "\\u{\(String(scalar.value, radix: 16))}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    static func optionalQuoted(_ text: String?) -> String {
        text.map(quoted) ?? "nil"
    }

    /// `{a, b}`: the keys of a data-fields object.
    static func fields(_ object: [String: DataValue]?) -> String? {
        guard let object else { return nil }
        let keys = object.keys.sorted()
        let shown = keys.prefix(6).joined(separator: ", ")
        return "{" + shown + (keys.count > 6 ? ", +\(keys.count - 6)" : "") + "}"
    }

    static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A public call with its main arguments: `track "app_open" {source}`, each argument as its
    /// declaration's ``ArgumentDeclaration/TextStyle`` shows it.
    package static func call(_ call: PublicCall) -> String {
        var parts = [call.name.rawValue]
        for (argument, value) in zip(call.declaration.arguments, call.arguments) {
            if let shown = argumentText(value, argument.text) { parts.append(shown) }
        }
        return parts.joined(separator: " ")
    }

    private static func argumentText(_ value: ArgumentValue, _ style: ArgumentDeclaration.TextStyle) -> String? {
        switch style {
        case .quoted: return value.text.map(quoted)
        case .quotedOrNil: return optionalQuoted(value.text)
        case .plain: return value.text
        case .labelled(let word):
            if case .count(let count) = value { return "\(word) \(count)" }
            return value.text.map { "\(word) \($0)" }
        case .keys:
            guard case .dataFields(let members) = value else { return nil }
            return fields(members)
        case .itemCount:
            guard case .items(let items) = value else { return nil }
            return "\(items.count) item(s)"
        case .number:
            guard case .amount(let amount) = value else { return nil }
            return number(amount)
        case .choice(let yes, let no):
            guard case .flag(let flag) = value else { return nil }
            return flag ? yes : no
        case .oversized:
            return value.text.map { "(oversized: \($0))" }
        case .hidden:
            return nil
        case .composite:
            switch value {
            case .project(let project): return self.project(project)
            case .attribution(let info): return info.map(attribution) ?? "nil"
            case .pushOpen(let open):
                let parts = ["message \(quoted(open.messageID))", open.campaignID.map { "campaign \($0)" },
                             open.templateID.map { "template \($0)" }, fields(open.dataFields)]
                return parts.compactMap { $0 }.joined(separator: " ")
            case .text, .count, .amount, .flag, .dataFields, .items, .callName:
                return nil
            }
        }
    }

    /// `7 days`, `36 hours`, `90 minutes`, `1500 ms`: the largest whole unit.
    static func duration(_ value: Duration) -> String {
        let milliseconds = value.wholeMilliseconds
        for (unit, name) in [(86_400_000 as Int64, "day"), (3_600_000, "hour"), (60_000, "minute"), (1_000, "second")]
        where milliseconds >= unit && milliseconds % unit == 0 {
            let count = milliseconds / unit
            return "\(count) \(name)" + (count == 1 ? "" : "s")
        }
        return "\(milliseconds) ms"
    }

    /// A background task's fact in words (`replay timeline`, `diagnose`, the report); nil for any
    /// other fact.
    static func background(_ fact: Fact) -> String? {
        switch fact {
        case .backgroundTaskBegan(let task, let budget):
            return budget > 0
                ? "the app went to the background: task \(task) granted \(seconds(budget)) to make the journal durable and send what waits"
                : "the app went to the background: task \(task), no time granted; making the journal durable and sending what waits"
        case .backgroundTaskExpired(let task):
            return "the system took task \(task)'s time back before the SDK ended it"
        case .backgroundFlushFinished(let task, let queued, let left, let failure):
            let durable = failure.map { "the journal NOT known durable (\($0))" } ?? "the journal durable"
            let sent = left == 0 ? "nothing left to send" : "\(left) request(s) still waiting"
            return "task \(task)'s flush: \(durable), \(queued) request(s) queued at the start, \(sent)"
        case .backgroundTaskEnded(let task, let reason):
            let why = switch reason {
            case .flushed: "its flush was done"
            case .deadline: "its budget was about to run out"
            case .expired: "the system took its time back"
            case .foreground: "the app came back to the foreground"
            case .shutdown: "the SDK shut down"
            }
            return "task \(task) given back to the system: \(why)"
        default:
            // A default is right: this describes the background task's facts only.
            return nil
        }
    }

    /// A storage fact in words (`replay timeline`, `diagnose`, the report): files that opened
    /// late, a key that could not be filed; nil for any other fact.
    static func storage(_ fact: Fact) -> String? {
        switch fact {
        case .storageWasUnavailable(let reason, let waited, let attempts, let held, let refused):
            let refusedText = refused == 0 ? "" : ", \(refused) refused past the hold's bound"
            return "the SDK's files could not be opened for \(seconds(waited)) (\(attempts) failed attempt(s), the last: \(reason)): "
                + "\(held) call(s) held in memory and journaled next, in order\(refusedText)"
        case .keyringWriteFailed(let project, let reason):
            return "the keyring could not file project \(project)'s key: \(reason); a later launch may not find it"
        default:
            // A default is right: this describes the storage facts only.
            return nil
        }
    }

    /// `2.5 s`, `30 s`: a span of microseconds in seconds, to a tenth.
    static func seconds(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : ""
        let tenths = microseconds.magnitude / 100_000
        return tenths % 10 == 0 ? "\(sign)\(tenths / 10) s" : "\(sign)\(tenths / 10).\(tenths % 10) s"
    }

    /// A signed span of microseconds in its two largest units, for people: `+8 d 0 h`,
    /// `-1 h 30 min`, `+2.5 s`.
    static func clockJump(microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : "+"
        let magnitude = microseconds.magnitude
        let seconds = magnitude / 1_000_000
        let (days, hours, minutes) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60)
        if days > 0 { return "\(sign)\(days) d \(hours) h" }
        if hours > 0 { return "\(sign)\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(sign)\(minutes) min \(seconds % 60) s" }
        return "\(sign)\(seconds).\(magnitude / 100_000 % 10) s"
    }

    /// Why a task's next attempt waits.
    static func retryReason(_ reason: RetryReason) -> String {
        switch reason {
        case .noResponse(let error): "no response (\(error)): waits for the network"
        case .serverBusy(let error, let failures): "\(error) (\(failures) such answer(s))"
        case .notSent(let why): "not sent (\(notSent(why))): waits aside, the rest of its project's queue goes on"
        }
    }

    /// Why an attempt was never made.
    static func notSent(_ reason: NotSentReason) -> String {
        switch reason {
        case .noToken(let said): "no JWT for its user: \(said)"
        case .tokenRefused(let said): "the auth provider refused a JWT for its user: \(said)"
        case .noAPIKey: "no API key for its project in the keyring"
        case .noAuthProvider: "no auth provider for its project"
        case .invalidEndpoint(let why): "invalid endpoint: \(why)"
        }
    }

    static func attribution(_ info: AttributionInfo) -> String {
        "campaign \(info.campaignID) template \(info.templateID) message \(quoted(info.messageID))"
    }

    static func failure(_ failure: CallFailure) -> String {
        switch failure {
        case .rejected(let reason): "rejected: \(reason)"
        case .notInitialized: "not initialized"
        case .httpStatus(let status, let code, let message):
            "HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
        case .retriesExhausted(let reason): "retries exhausted: \(reason)"
        case .authentication(let reason): "authentication: \(reason)"
        case .linkNotResolved(let reason): "link not resolved: \(reason)"
        case .notDurable(let reason): "not durable: \(reason)"
        }
    }

    static func discard(_ reason: DiscardReason) -> String {
        switch reason {
        case .purgedByLogout: "purged by logout"
        case .purgedBySwitch(let id): "purged by switch \(id)"
        case .undeliveredAtSwitch(let id): "undelivered at switch \(id)"
        case .gateFull(let capacity): "gate full (\(capacity))"
        case .queueFull(let capacity): "queue full (\(capacity))"
        case .shutdown: "the SDK shut down"
        case .consentDeclined: "the user declined consent"
        case .erased: "erased on request (eraseLocalData)"
        case .expired(let ageLimit): "expired: waited longer than \(duration(ageLimit)) to be delivered"
        }
    }

    /// A call's outcome in words; projects by their labels in `labels` where they have one.
    static func outcome(_ outcome: CallOutcome, labels: ProjectLabels = ProjectLabels()) -> String {
        switch outcome.parts {
        case .task(let task, let project): taskOutcome(task, deliveredTo: project, labels: labels)
        case .applied(let project): "applied" + (project.map { " on \(labels.name($0))" } ?? "")
        }
    }

    /// A task's outcome (`delivered (200)`), or a call's with the project it was delivered to
    /// (`delivered to <project> (200)`).
    package static func taskOutcome(_ outcome: TaskOutcome, deliveredTo project: ProjectFingerprint? = nil,
                                    labels: ProjectLabels = ProjectLabels()) -> String {
        switch outcome {
        case .delivered(let status): "delivered" + (project.map { " to \(labels.name($0))" } ?? "") + " (\(status))"
        case .failed(let failure): "failed: " + self.failure(failure)
        case .discarded(let reason): "discarded: " + discard(reason)
        }
    }

    /// The gate's decision in words; projects by their labels in `labels` where they have one.
    static func decision(_ decision: GateDecision, labels: ProjectLabels = ProjectLabels()) -> String {
        switch decision {
        case .executed(let project): "executed on \(labels.name(project))"
        case .queued(let id, let position, _): "queued behind \(id) at #\(position)"
        case .replayed(let id, let project): "replayed by \(id) on \(labels.name(project))"
        case .inline(let project): "inline on \(labels.name(project))"
        case .refused: "refused"
        }
    }

    /// The decision's one-word name: executed, queued, replayed, inline, refused.
    static func decisionName(_ decision: GateDecision) -> String {
        switch decision {
        case .executed: "executed"
        case .queued: "queued"
        case .replayed: "replayed"
        case .inline: "inline"
        case .refused: "refused"
        }
    }

    static func routing(_ routing: SwitchRouting) -> String {
        switch routing {
        case .started: "started"
        case .absorbed(let id): "absorbed into \(id)"
        case .enqueued(let id): "enqueued behind \(id)"
        case .noop: "noop (already there)"
        case .initialization: "initialization"
        case .moved(let id): "moved \(id) to the tail and joined it"
        }
    }

    static func routingName(_ routing: SwitchRouting) -> String {
        switch routing {
        case .started: "started"
        case .absorbed: "absorbed"
        case .enqueued: "enqueued"
        case .noop: "noop"
        case .initialization: "initialization"
        case .moved: "moved"
        }
    }

    static func stepOutcome(_ outcome: StepOutcome) -> String {
        switch outcome {
        case .clean: "clean"
        case .warning(let reason): "noisy: \(reason)"
        }
    }

    package static func result(_ result: SwitchResult) -> String {
        switch result {
        case .switchedCleanly: "switchedCleanly"
        case .switchedWithWarnings: "switchedWithWarnings"
        case .notPerformed: "notPerformed"
        case .interruptedByShutdown: "interruptedByShutdown"
        }
    }

    static func timer(_ timer: TimerPurpose) -> String {
        switch timer {
        case .retry(let task, let attempt): "retry \(task) attempt \(attempt)"
        case .teardownBound(let id, let step): "bound of \(id) \(step.rawValue)"
        case .moduleHookBound(let hook): "bound of hook #\(hook)"
        }
    }


    static func durabilityWait(_ wait: DurabilityWait) -> String {
        switch wait {
        case .flush(let call): "flush call \(call)"
        case .teardownDisable(let id): "teardown disable of \(id)"
        }
    }

    static func transport(_ outcome: TransportOutcome) -> String {
        switch outcome {
        case .response(let status, let code, let ids, let message):
            "HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
                + (ids.isEmpty ? "" : ", \(ids.count) message(s)")
        case .networkError(let reason): "network error: \(reason)"
        case .notSent(let reason): "not sent: \(notSent(reason))"
        }
    }

    static func taskStatus(_ status: QueuedTask.Status) -> String {
        switch status {
        case .queued: "queued"
        case .inFlight(let attempt): "in flight (attempt \(attempt))"
        case .retrying(let next): "retrying (attempt \(next) due)"
        case .awaitingToken(let next): "awaiting a JWT (attempt \(next))"
        }
    }

    static func request(_ task: DeliveryTask) -> String {
        "\(task.method.rawValue) \(task.path)"
    }

    /// A duration between two times, safe for any values.
    package static func elapsed(from start: JournalTime, to end: JournalTime) -> String {
        let (difference, overflow) = end.microsecondsSince1970.subtractingReportingOverflow(start.microsecondsSince1970)
        return overflow ? "?" : Format.duration(microseconds: difference)
    }
}
