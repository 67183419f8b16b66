import Foundation

extension ReceivedRequest {
    /// The tracked events the request carried, in order, whatever the answer: its body for
    /// `events/track`, each element of `events` for `events/trackBulk` (objects with an
    /// `eventName` only); empty for every other endpoint.
    public var trackedEvents: [DeliveredEvent] {
        let objects: [[String: Any]]
        switch endpoint {
        case "events/track": objects = jsonObject.map { [$0] } ?? []
        case "events/trackBulk": objects = (jsonObject?["events"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
        default: return []
        }
        return objects.enumerated().compactMap { index, object in
            guard let name = object["eventName"] as? String else { return nil }
            let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return DeliveredEvent(eventName: name, email: object["email"] as? String, userID: object["userId"] as? String,
                                  body: body, request: self, index: index)
        }
    }
}
