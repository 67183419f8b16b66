import Foundation

/// The imitated answer to `events/trackBulk`: every event of the body is judged on its own, as
/// the platform does, and the answer lists what it refused.
///
/// An event is refused when its `eventName` is one of the project's
/// ``SandboxProject/disallowedEventNames``; the rest are accepted. A body that is not
/// `{"events": [<objects>]}` is answered 400 `InvalidJsonBody`.
struct BulkTrackAnswer {
    /// The events of the body, in order.
    let events: [[String: Any]]
    /// The names refused, sorted.
    let refusedNames: [String]

    /// Reads `body`; nil when it is not a bulk body.
    init?(body: Data, project: SandboxProject) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let events = object["events"] as? [Any] else { return nil }
        let objects = events.compactMap { $0 as? [String: Any] }
        guard objects.count == events.count else { return nil }
        self.events = objects
        let names = Set(objects.compactMap { $0["eventName"] as? String })
        refusedNames = names.filter(project.disallowedEventNames.contains).sorted()
    }

    /// How many events were refused.
    var failCount: Int {
        events.filter { ($0["eventName"] as? String).map(refusedNames.contains) ?? false }.count
    }

    /// The 200 answer: counts and the lists the platform's bulk answer carries.
    var response: HTTPResponse {
        let answer: [String: Any] = [
            "code": "Success",
            "successCount": events.count - failCount,
            "failCount": failCount,
            "disallowedEventNames": refusedNames,
            "invalidEmails": [String](),
            "invalidUserIds": [String](),
        ]
        let body = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(status: 200, body: body)
    }
}
