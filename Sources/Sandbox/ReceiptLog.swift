import Foundation

/// The sandbox's receipt log (docs/RECONCILE.md): one NDJSON line per call each
/// authenticated request carried, as `replay reconcile` reads it.
///
/// A call is a JSON object of the body with a `callId` member (the body itself, or each
/// element of a bulk's `events`), or a fetch's `callId` query parameter; a request without
/// one (not sent by this SDK) has no line. Pure: built from the request log on the caller's
/// thread.
enum ReceiptLog {
    /// The lines for `requests` (in arrival order), `projects` naming each project's key
    /// and region, each line ending in a newline.
    static func lines(of requests: [ReceivedRequest], projects: [SandboxProject]) -> String {
        let byName = Dictionary(projects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var fingerprints: [String: String] = [:]
        var output = ""
        for request in requests where request.isAuthenticated {
            guard let name = request.projectName, let project = byName[name], let endpoint = request.endpoint else { continue }
            let fingerprint = fingerprints[name] ?? KeyFingerprint.hex(of: project.apiKey)
            fingerprints[name] = fingerprint
            for call in calls(of: request) {
                var status = request.status
                // A bulk answered 2xx that refused the event by its name did not take it.
                if let answered = status, (200..<300).contains(answered), endpoint == "events/trackBulk",
                   let event = call.eventName, project.disallowedEventNames.contains(event) {
                    status = 400
                }
                let members: [(String, String)] = [
                    ("project", quoted(fingerprint)),
                    ("region", quoted(request.region ?? project.region)),
                    ("endpoint", quoted(endpoint)),
                    ("call_id", quoted(call.id)),
                    ("idempotency_key", request.headers["idempotency-key"].map(quoted) ?? "null"),
                    ("user", call.user.map(quoted) ?? "null"),
                    ("received_at", quoted(iso(request.receivedAt))),
                    ("status", status.map(String.init) ?? "null"),
                    ("duplicate", request.outcome == .duplicate ? "true" : "false"),
                ]
                output += "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
            }
        }
        return output
    }

    /// One call a request carried: its id, the user it names, its event's name (bulk events).
    struct Call {
        var id: String
        var user: String?
        var eventName: String?
    }

    /// The calls of `request`, in the order its body (or query) names them.
    static func calls(of request: ReceivedRequest) -> [Call] {
        if let query = request.query {
            var id: String?
            var user: String?
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding else { continue }
                switch parts[0] {
                case "callId": id = value
                case "email": user = "email:" + value
                case "userId": user = user ?? "userId:" + value
                default: break
                }
            }
            if let id { return [Call(id: id, user: user, eventName: nil)] }
        }
        guard let object = request.jsonObject else { return [] }
        let objects = request.endpoint == "events/trackBulk" ? (object["events"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? [] : [object]
        return objects.compactMap { object in
            guard let id = object["callId"] as? String else { return nil }
            return Call(id: id, user: user(of: object), eventName: object["eventName"] as? String)
        }
    }

    /// The user an object names: at its top, in its `user`, or as the current user of an
    /// email change; by email before id.
    private static func user(of object: [String: Any]) -> String? {
        for holder in [object, object["user"] as? [String: Any] ?? [:]] {
            if let email = holder["email"] as? String { return "email:" + email }
            if let id = holder["userId"] as? String { return "userId:" + id }
        }
        if let email = object["currentEmail"] as? String { return "email:" + email }
        if let id = object["currentUserId"] as? String { return "userId:" + id }
        return nil
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// `date` as ISO 8601 in UTC with microseconds: `2026-12-06T08:00:00.123456Z`.
    static func iso(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
            + "." + pad(Int(fraction), 6) + "Z"
    }
}
