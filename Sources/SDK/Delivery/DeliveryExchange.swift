import Foundation
import Journal
import SDKCore

/// The HTTP side of delivery, as pure functions: the request a task is sent as, and what a
/// response (or a tracked link's redirect) means to the core.
enum DeliveryExchange {
    /// The HTTP request for a task sent from journal stream `stream`: its endpoint and path, the
    /// key, the platform's headers, and each call's ``WireCallID`` (`callId` in each JSON object
    /// of the body, or in a fetch's query) beside the task's `Idempotency-Key`.
    static func request(for task: DeliveryTask, apiKey: String, sentAt: JournalTime, sdkVersion: String,
                        stream: UUID) -> TransportRequest? {
        var address = task.endpoint
        if !address.hasSuffix("/") { address += "/" }
        address += task.wirePath
        if let query = task.wireQuery(stream: stream), !query.isEmpty { address += "?" + query }
        guard let url = URL(string: address) else { return nil }
        var headers: [(name: String, value: String)] = [
            ("Api-Key", apiKey),
            ("SDK-Version", sdkVersion),
            ("SDK-Platform", "Swift"),
            ("Sent-At", String(sentAt.microsecondsSince1970 / 1_000_000)),
            ("Idempotency-Key", task.idempotencyKey(stream: stream)),
        ]
        if task.method == .post { headers.append(("Content-Type", "application/json")) }
        var body: Data?
        if task.method == .post {
            // Written once, straight into the buffer the request keeps: a bulk body is tens of
            // kilobytes, and building it in an array first would copy every byte twice.
            let count = task.wireBodyCount
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
            task.writeWireBody(into: bytes, stream: stream)
            body = Data(bytesNoCopy: bytes.baseAddress!, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
        }
        return TransportRequest(method: task.method == .get ? .get : .post, url: url, headers: headers, body: body)
    }

    /// What the core hears of an exchange for `task`: the outcome and, for a bulk request the
    /// project accepted, the events its answer refused.
    static func completion(of result: TransportResult, task: DeliveryTask, attempt: Int, apiKey: String) -> TransportCompletion {
        guard case .response(let status, _, let body) = result else {
            return TransportCompletion(task: task.id, attempt: attempt, outcome: outcome(of: result, apiKey: apiKey))
        }
        // The answer is parsed once, for the outcome and for a bulk's refused events.
        let json = body.isEmpty ? nil : JSONParser.parse(Array(body))
        var outcome = responseOutcome(status: status, json: json, apiKey: apiKey)
        let dropped = keepMessages(of: &outcome, askedFor: task)
        guard task.hasBatch, (200..<300).contains(status) else {
            return TransportCompletion(task: task.id, attempt: attempt, outcome: outcome, droppedMessageIDs: dropped)
        }
        return TransportCompletion(task: task.id, attempt: attempt, outcome: outcome, refusedEvents: refusedEvents(in: json, of: task),
                                   droppedMessageIDs: dropped)
    }

    /// Keeps the messages an answer lists within what `task` asked for: at most the `count` of an
    /// in-app fetch (``CallLimits/messagesPerFetch`` for any fetch), each id within
    /// ``CallLimits/identifierBytes``. Returns how many it dropped (the input journals the count).
    static func keepMessages(of outcome: inout TransportOutcome, askedFor task: DeliveryTask) -> Int {
        guard case .response(let status, let code, let ids, let message) = outcome, !ids.isEmpty else { return 0 }
        let asked = task.query.flatMap(askedCount) ?? CallLimits.messagesPerFetch
        let kept = Array(ids.lazy.filter { !$0.isEmpty && $0.utf8.count <= CallLimits.identifierBytes }.prefix(min(asked, CallLimits.messagesPerFetch)))
        outcome = .response(status: status, code: code, messageIDs: kept, message: message)
        return ids.count - kept.count
    }

    /// The `count` a fetch's query asks for.
    private static func askedCount(in query: String) -> Int? {
        for pair in query.split(separator: "&") where pair.hasPrefix("count=") {
            return Int(pair.dropFirst("count=".count))
        }
        return nil
    }

    /// The events of `task` a bulk answer lists as refused: by event name
    /// (`disallowedEventNames`), by email (`invalidEmails`, `failedUpdates.*Emails`) or by user
    /// id (`invalidUserIds`, `failedUpdates.*UserIds`). The reason names the list, never the value.
    static func refusedEvents(in answer: JSONValue?, of task: DeliveryTask) -> [RefusedEvent] {
        guard let answer else { return [] }
        var lists: [(field: String, list: String, values: Set<String>)] = []
        func collect(_ value: JSONValue?, field: String, list: String) {
            guard case .array(let items)? = value else { return }
            let values = Set(items.compactMap(\.stringValue))
            if !values.isEmpty { lists.append((field, list, values)) }
        }
        collect(answer["disallowedEventNames"], field: "eventName", list: "disallowedEventNames")
        collect(answer["invalidEmails"], field: "email", list: "invalidEmails")
        collect(answer["invalidUserIds"], field: "userId", list: "invalidUserIds")
        if case .object(let failed)? = answer["failedUpdates"] {
            for (name, value) in failed {
                collect(value, field: name.hasSuffix("Emails") ? "email" : "userId", list: "failedUpdates." + name)
            }
        }
        guard !lists.isEmpty else { return [] }
        var refused: [RefusedEvent] = []
        for index in 0..<task.eventCount {
            guard let body = task.eventBody(at: index), let event = JSONParser.parse(body) else { continue }
            if let hit = lists.first(where: { entry in event[entry.field]?.stringValue.map(entry.values.contains) ?? false }) {
                refused.append(RefusedEvent(index: index, reason: "the project refused the event (\(hit.list))"))
            }
        }
        return refused
    }

    /// What decisions need from a response: status, the API's `code` and (for a failure) its
    /// `msg`, with the request's API key masked should the server quote it, fetched message ids.
    static func outcome(of result: TransportResult, apiKey: String) -> TransportOutcome {
        switch result {
        case .networkError(let reason):
            return .networkError(FreeText.bounded(reason))
        case .response(let status, _, let body):
            return responseOutcome(status: status, json: body.isEmpty ? nil : JSONParser.parse(Array(body)), apiKey: apiKey)
        }
    }

    /// The outcome of a response whose body parsed as `json` (nil: empty or not JSON).
    private static func responseOutcome(status: Int, json: JSONValue?, apiKey: String) -> TransportOutcome {
        var ids: [String] = []
        if case .array(let messages)? = json?["inAppMessages"] {
            ids = messages.compactMap { $0["messageId"]?.stringValue }
        } else if case .array(let placements)? = json?["placements"] {
            for placement in placements {
                guard case .array(let messages)? = placement["embeddedMessages"] else { continue }
                for message in messages {
                    if let id = message["metadata"]?["messageId"]?.stringValue { ids.append(id) }
                }
            }
        }
        var message: String?
        if !(200..<300).contains(status), let said = json?["msg"]?.stringValue, !said.isEmpty {
            message = String(said.replacingOccurrences(of: apiKey, with: "<api key>").prefix(EngineBounds.serverMessageLimit))
        }
        return .response(status: status, code: json?["code"]?.stringValue.map { FreeText.bounded($0, limit: FreeText.codeLimit) },
                         messageIDs: ids, message: message)
    }

    /// What a tracked link's answer says: a redirect with its destination and attribution.
    static func linkResolution(_ job: UInt64, _ result: TransportResult) -> LinkResolution {
        switch result {
        case .networkError(let reason):
            return LinkResolution(job: job, destination: nil, attribution: nil, failure: FreeText.bounded(reason))
        case .response(let status, let headers, _):
            guard (300..<400).contains(status), let location = headers["location"] else {
                return LinkResolution(job: job, destination: nil, attribution: nil, failure: "HTTP \(status) without a redirect")
            }
            guard location.utf8.count <= CallLimits.urlBytes else {
                return LinkResolution(job: job, destination: nil, attribution: nil,
                                      failure: "the redirect's destination is \(location.utf8.count) bytes, at most \(CallLimits.urlBytes)")
            }
            let cookies = TrackedLinkCookies(headers["set-cookie"] ?? "")
            return LinkResolution(job: job, destination: location, attribution: cookies.attribution, failure: nil)
        }
    }
}
