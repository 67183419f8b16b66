import Journal

/// Replaces personal data in facts and states with keyed-hash tokens (``KeyedHash``): emails,
/// user ids, push tokens and data-field values; request bodies keep their keys and lose every
/// string value. Equal values give equal tokens under one redactor, so a post-mortem still sees
/// "the same user" without seeing who.
///
/// Kept as they are: project fingerprints, event names, message, campaign and template ids,
/// commerce items' ids, names, prices and quantities (not their data fields). URLs keep their
/// scheme, host and path (``redact(url:)``); free text keeps the SDK's and the platform's own
/// words (``redact(text:)``).
///
/// Token kinds: `email`, `user`, `token`, `data` (data-field values, whatever their type, and
/// data-field keys that are not identifier-shaped), `body` (other strings of request bodies),
/// `text` (words and numbers of free text not kept, quoted passages, URLs' path segments that
/// are not structure, fragments and user info).
package struct Redactor: Sendable {
    private let hash: any Tokenizer
    /// Whether each personal or free-text value becomes one token whole (``summarizing``).
    package private(set) var summarizes = false

    package init(hash: KeyedHash) {
        self.hash = hash
    }

    /// A redactor whose tokens come from `tokens` (a cache in front of a ``KeyedHash``).
    package init(tokens: some Tokenizer) {
        self.hash = tokens
    }

    /// This redactor, with its tokens, redacting in summary: each free text, URL, query, request
    /// body and data-field object becomes one token whole (a body one JSON string, data fields
    /// one member whose key is the token), so that each value a record holds takes at most a
    /// token's bytes. What a redacted copy writes for a record that full redaction makes larger
    /// than a record may be (``RedactedCopyRecords``).
    package var summarizing: Redactor {
        var summary = self
        summary.summarizes = true
        return summary
    }

    package func token(_ value: String, _ kind: String) -> String {
        hash.token(value, kind: kind)
    }

    /// Appends the JSON string of ``token(_:_:)`` for the well-formed UTF-8 `value`.
    package func writeToken(utf8 value: UnsafeBufferPointer<UInt8>, _ kind: String, to output: inout ScratchBytes) {
        hash.writeToken(utf8: value, kind: kind, to: &output)
    }

    // MARK: - Facts

    /// Each field as its declaration says (``FactField``): text by what it is, the SDK's
    /// composite values by their own redaction, ids, numbers and projects kept. A fact of a kind
    /// this build does not know may hold anything: nothing of it is kept.
    package func redact(_ fact: Fact) -> Fact {
        redactBusiest(fact) ?? redactDeclared(fact)
    }

    /// ``redact(_:)-(Fact)`` as the fact's declaration says (the busiest kinds too, which
    /// ``redactBusiest(_:)`` redacts directly).
    package func redactDeclared(_ fact: Fact) -> Fact {
        if case .unknown(let kind, _) = fact { return .unknown(kind: kind, payload: []) }
        guard let declaration = fact.declaration, !declaration.isKeptWholeWhenRedacted else { return fact }
        return fact.mapFields { field, value in redact(value, of: field) }
    }

    /// One field of a fact: its redacted value, or nil when the value is kept as it is.
    package func redact(_ value: FactFieldValue, of field: FactField) -> FactFieldValue? {
        switch value {
        case .text(let text):
            return .text(text.map { redact(text: $0, as: field.text) })
        case .texts(let texts):
            return .texts(texts.map { redact(text: $0, as: field.text) })
        case .receivedCall(let received):
            return .receivedCall(redact(received))
        case .gateDecision(let decision):
            return redact(decision).map(FactFieldValue.gateDecision)
        case .publicCall(let call):
            return .publicCall(redact(call))
        case .deliveryTask(let task):
            return .deliveryTask(redact(task))
        case .batchedEvent(let event):
            return redact(event).map(FactFieldValue.batchedEvent)
        case .callOutcome(let outcome):
            return redact(outcome).map(FactFieldValue.callOutcome)
        case .taskOutcome(let outcome):
            return redact(outcome).map(FactFieldValue.taskOutcome)
        case .transportCompletion(var completion):
            completion.outcome = switch completion.outcome {
            case .networkError(let reason): .networkError(redact(text: reason))
            case .response(let status, let code, let ids, let message):
                .response(status: status, code: code, messageIDs: ids, message: message.map(redact(text:)))
            case .notSent(let reason): .notSent(redact(reason))
            }
            return .transportCompletion(completion)
        case .retryReason(.noResponse(let error)):
            return .retryReason(.noResponse(redact(text: error)))
        case .retryReason(.serverBusy(let error, let failures)):
            return .retryReason(.serverBusy(redact(text: error), failures: failures))
        case .retryReason(.notSent(let reason)):
            return .retryReason(.notSent(redact(reason)))
        case .stepOutcome(.warning(let reason)):
            return .stepOutcome(.warning(redact(text: reason)))
        case .journalGap(var gap):
            gap.reason = redact(text: gap.reason)
            return .journalGap(gap)
        case .linkResolution(var resolution):
            resolution.destination = resolution.destination.map(redact(url:))
            resolution.failure = resolution.failure.map(redact(text:))
            return .linkResolution(resolution)
        case .hookCompletion(var completion):
            completion.failure = completion.failure.map(redact(text:))
            return .hookCompletion(completion)
        case .authReceipt(var receipt):
            receipt.failure = receipt.failure.map(redact(text:))
            return .authReceipt(receipt)
        case .erasure(var erasure):
            erasure.erased.failure = erasure.erased.failure.map(redact(text:))
            return .erasure(erasure)
        case .durabilityConfirmation(var confirmation):
            confirmation.failure = confirmation.failure.map(redact(text:))
            return .durabilityConfirmation(confirmation)
        case .number, .attempt, .microseconds, .time, .call, .calls, .task, .switchID, .fingerprint, .executedOn, .project,
             .timer, .routing, .teardownStep, .stepOutcome, .landing, .moduleSignal,
             .durabilityWait, .attribution, .messageKind, .storageScope, .backgroundTaskEnd, .engineStart:
            // Nothing personal: ids, projects, counts, times, the SDK's own names and rules
            // (an outcome is redacted above).
            return nil
        }
    }

    /// A text field's value as its declared kind keeps it; a text of no declared kind is
    /// taken as free text (the closed way).
    func redact(text: String, as kind: FactField.Text?) -> String {
        switch kind {
        case .personal(let token)?: self.token(text, token.rawValue)
        case .url?: redact(url: text)
        case .freeText?, nil: redact(text: text)
        case .name?, .identifier?: text
        }
    }

    package func redact(_ received: ReceivedCall) -> ReceivedCall {
        ReceivedCall(id: received.id, caller: received.caller, call: redact(received.call))
    }

    /// Each argument as its declared kind says (``ArgumentKind/privacy``): personal values
    /// become tokens, free text loses its quoted and address-like words, the rest is kept.
    package func redact(_ call: PublicCall) -> PublicCall {
        call.mapArguments { argument, value in redact(value, as: argument.kind) }
    }

    package func redact(_ value: ArgumentValue, as kind: ArgumentKind) -> ArgumentValue {
        switch (kind, value) {
        case (.email, .text(let text)), (.userID, .text(let text)), (.pushToken, .text(let text)):
            return .text(text.map { token($0, kind.tokenKind ?? "text") })
        case (.url, .text(let text)), (.link, .text(let text)):
            return .text(text.map(redact(url:)))
        case (.reason, .text(let text)):
            return .text(text.map(redact(text:)))
        case (.dataFields, .dataFields(let members)):
            return .dataFields(members.map(redact(data:)))
        case (.items, .items(let items)):
            return .items(items.map(redact))
        case (.pushOpen, .pushOpen(var open)):
            open.dataFields = open.dataFields.map(redact(data:))
            return .pushOpen(open)
        case (.identifier, _), (.attribution, _), (.callName, _), (.messageCount, _), (.amount, _), (.flag, _), (.project, _):
            // Identifiers and structure: kept (``PrivacyClass``).
            return value
        case (.email, _), (.userID, _), (.pushToken, _), (.url, _), (.link, _), (.reason, _), (.dataFields, _), (.items, _), (.pushOpen, _):
            preconditionFailure("\(kind) argument holding \(value)")
        }
    }

    package func redact(_ item: CommerceItem) -> CommerceItem {
        var item = item
        item.dataFields = item.dataFields.map(redact(data:))
        return item
    }

    /// Every leaf becomes a `data` token (of its JSON text, so 2 and "2" differ); structure
    /// stays. A key is kept when it is identifier-shaped (``IdentifierShape/isIdentifier(_:)``)
    /// and becomes a `data` token otherwise, at every depth (``redact(dataKey:)``).
    package func redact(data members: [String: DataValue]) -> [String: DataValue] {
        if summarizes {
            guard !members.isEmpty else { return members }
            return [token(DataValue.object(members).json(), "data"): .null]
        }
        var redacted = [String: DataValue](minimumCapacity: members.count)
        for (key, value) in members { redacted[redact(dataKey: key)] = redact(data: value) }
        return redacted
    }

    /// A data-field key as a redacted copy keeps it: as it is when identifier-shaped or a token
    /// already made, a `data` token otherwise (a phone number, an address, a name with a space).
    package func redact(dataKey key: String) -> String {
        Self.keeps(key: key) ? key : token(key, "data")
    }

    /// Whether a key of data fields or of a request body is kept as it is by a redacted copy.
    package static func keeps(key: String) -> Bool {
        var key = key
        return key.withUTF8 { IdentifierShape.isIdentifier($0) || FreeTextWords.isToken($0) }
    }

    package func redact(data value: DataValue) -> DataValue {
        switch value {
        case .null: .null
        case .array(let elements): .array(elements.map(redact(data:)))
        case .object(let members): .object(redact(data: members))
        case .string(let text): .string(token(text, "data"))
        case .integer(let number): .string(token(String(number), "data"))
        case .number(let number): .string(token("\(number)", "data"))
        case .bool(let flag): .string(token(flag ? "true" : "false", "data"))
        }
    }

    package func redact(_ task: DeliveryTask) -> DeliveryTask {
        var task = task
        task.body = redact(body: task.body)
        if task.hasBatch {
            task.replaceBatch(task.batch.map { BatchedEvent(call: $0.call, body: redact(body: $0.body)) }, queuedAt: task.batchQueuedAt)
        }
        task.query = task.query.map(redact(query:))
        task.user = switch task.user {
        case .email(let email)?: .email(token(email, "email"))
        case .userID(let userID)?: .userID(token(userID, "user"))
        case nil: nil
        }
        return task
    }

    /// A gate decision with its held call redacted; nil for the decisions that hold none.
    package func redact(_ decision: GateDecision) -> GateDecision? {
        guard case .queued(let id, let position, let received) = decision else { return nil }
        return .queued(switch: id, position: position, call: redact(received))
    }

    /// An event joining a bulk with its body redacted; nil for a bodiless one (its record
    /// carries the gate's decision, and the input's call the body).
    package func redact(_ event: BatchedEvent) -> BatchedEvent? {
        guard !event.body.isEmpty else { return nil }
        return BatchedEvent(call: event.call, body: redact(body: event.body))
    }

    /// A task's outcome with its failure's words redacted; nil when it carries none.
    package func redact(_ outcome: TaskOutcome) -> TaskOutcome? {
        switch outcome {
        case .failed(let failure): .failed(redact(failure))
        case .delivered, .discarded: nil
        }
    }

    /// A call's outcome with its failure's words redacted; nil when it carries none.
    package func redact(_ outcome: CallOutcome) -> CallOutcome? {
        switch outcome {
        case .failed(let failure): .failed(redact(failure))
        case .delivered, .applied, .discarded: nil
        }
    }

    /// Why an attempt was not sent, with the provider's and the endpoint's words as free text.
    package func redact(_ reason: NotSentReason) -> NotSentReason {
        switch reason {
        case .noToken(let said): .noToken(redact(text: said))
        case .tokenRefused(let said): .tokenRefused(redact(text: said))
        case .invalidEndpoint(let why): .invalidEndpoint(redact(text: why))
        case .noAPIKey, .noAuthProvider: reason
        }
    }

    package func redact(_ failure: CallFailure) -> CallFailure {
        switch failure {
        case .rejected(let reason): .rejected(redact(text: reason))
        case .retriesExhausted(let reason): .retriesExhausted(redact(text: reason))
        case .authentication(let reason): .authentication(redact(text: reason))
        case .linkNotResolved(let reason): .linkNotResolved(redact(text: reason))
        case .notDurable(let reason): .notDurable(redact(text: reason))
        case .httpStatus(let status, let code, let message): .httpStatus(status, code: code, message: message.map(redact(text:)))
        case .notInitialized: failure
        }
    }

    // MARK: - Request bodies and queries

    /// The JSON body with every string value replaced, and every key that is not identifier-shaped
    /// (``keeps(key:)``); the kind follows the key
    /// (`email`, `currentEmail`, `newEmail` → email; `userId`, `currentUserId` → user; `token`
    /// → token); everything under `dataFields` becomes data tokens. A body that is not JSON is
    /// replaced by one token.
    package func redact(body: [UInt8]) -> [UInt8] {
        guard !body.isEmpty else { return body }
        if summarizes { return Array(JSONValue.string(token(String(decoding: body, as: UTF8.self), "body")).serialized().utf8) }
        return CanonicalBodyRedaction.redact(body, with: self) ?? redactParsing(body: body)
    }

    /// ``redact(body:)`` by parsing the body into a tree and writing the tree again: what a body
    /// in any form takes, and what the one-pass redaction of bodies in the SDK's own form
    /// (``CanonicalBodyRedaction``) gives byte for byte.
    func redactParsing(body: [UInt8]) -> [UInt8] {
        guard let json = JSONParser.parse(body) else {
            return Array(JSONValue.string(token(String(decoding: body, as: UTF8.self), "body")).serialized().utf8)
        }
        return ScratchBytes.withScratch(capacity: 2048) { output in
            writeRedacted(json, key: nil, inData: false, to: &output)
            return output.array
        }
    }

    /// Writes `json` with its string values (and, under `dataFields`, every scalar) replaced by tokens.
    private func writeRedacted(_ json: JSONValue, key: String?, inData: Bool, to output: inout ScratchBytes) {
        switch json {
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                let inData = inData || name == "dataFields"
                JSONValue.writeString(Self.keeps(key: name) ? name : token(name, inData ? "data" : "body"), to: &output)
                output.append(UInt8(ascii: ":"))
                writeRedacted(value, key: name, inData: inData, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeRedacted(element, key: key, inData: inData, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let text):
            JSONValue.writeString(token(text, inData ? "data" : Self.kind(forKey: key)), to: &output)
        case .integer, .unsigned, .number, .bool:
            if inData { JSONValue.writeString(token(json.serialized(), "data"), to: &output) } else { json.write(to: &output) }
        case .null:
            json.write(to: &output)
        }
    }

    /// The token kind of a body's string under `key` (nil: no key), given the key's UTF-8
    /// bytes and compared byte for byte: what comparing the key as a string gives, since no other
    /// spelling is canonically equivalent to one of these (no character decomposes to their
    /// letters).
    static func kind(forKeyBytes key: UnsafeBufferPointer<UInt8>?) -> String {
        guard let key else { return "body" }
        func equals(_ literal: StaticString) -> Bool {
            key.hasSameBytes(as: literal)
        }
        if equals("email") || equals("currentEmail") || equals("newEmail") { return "email" }
        if equals("userId") || equals("currentUserId") { return "user" }
        if equals("token") { return "token" }
        return "body"
    }

    static func kind(forKey key: String?) -> String {
        guard let key else { return "body" }
        return key.utf8.withContiguousBytes { kind(forKeyBytes: $0) }
    }

    // MARK: - States

    /// The state as its declaration classifies each field (``SDKState/mapFields(_:)``): texts
    /// by their kind, calls and requests as in facts, the fold's scratch emptied, the rest kept.
    package func redact(_ state: SDKState) -> SDKState {
        var redaction = StateRedaction(redactor: self)
        return state.mapFields(&redaction)
    }
}
