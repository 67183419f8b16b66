import Journal
import ReplayKit
import SDK

/// A request the simulated backend processed (answered 2xx): which project received it, by the
/// API key it carried, and under which idempotency key.
struct BackendReceipt: Sendable {
    var idempotencyKey: String
    var project: ProjectFingerprint
    var path: String
    /// The URL's query (a fetch names its call there).
    var query: String? = nil
    var body: [UInt8]
    var time: JournalTime
    /// The region whose endpoint received it.
    var region: String = ""
    /// The events of a bulk the answer refused, by name: the project did not take them.
    var refusedEventNames: [String] = []

    /// The receipt-log lines of the calls it carried (docs/RECONCILE.md), `duplicate` when
    /// `seen` (the calls the project took before, updated) already holds the call.
    func receiptLines(seen: inout Set<WireCallID>) -> [ReceiptLine] {
        var lines: [ReceiptLine] = []
        func add(_ id: WireCallID, user: String?, status: Int) {
            let duplicate = !seen.insert(id).inserted
            lines.append(ReceiptLine(project: project, region: region, endpoint: path, callID: id, idempotencyKey: idempotencyKey,
                                     user: user, receivedAt: time, status: status, duplicate: duplicate))
        }
        let users = SimulatedBackend.usersNamed(body: body, query: query).map(Self.text)
        if let query {
            for pair in query.split(separator: "&") where pair.hasPrefix(DeliveryTask.callIDKey + "=") {
                if let id = WireCallID(hex: pair.dropFirst(DeliveryTask.callIDKey.count + 1)) { add(id, user: users.first, status: 200) }
            }
        }
        guard !body.isEmpty, let json = JSONParser.parse(body) else { return lines }
        let objects: [JSONValue] = if path == DeliveryTask.bulkTrackPath, case .array(let events)? = json["events"] { events } else { [json] }
        for object in objects {
            guard let text = object[DeliveryTask.callIDKey]?.stringValue, let id = WireCallID(hex: text) else { continue }
            let refused = object["eventName"]?.stringValue.map(refusedEventNames.contains) ?? false
            add(id, user: Self.user(of: object) ?? users.first, status: refused ? 400 : 200)
        }
        return lines
    }

    /// The user an object names at its top or in its `user`, by email before id.
    private static func user(of object: JSONValue) -> String? {
        for holder in [object, object["user"]] {
            if let email = holder?["email"]?.stringValue { return "email:" + email }
            if let id = holder?["userId"]?.stringValue { return "userId:" + id }
        }
        return nil
    }

    /// `email:…` or `userId:…`, as receipt logs name a user.
    private static func text(_ user: UserIdentity) -> String {
        switch user {
        case .email(let email): "email:" + email
        case .userID(let id): "userId:" + id
        }
    }
}
