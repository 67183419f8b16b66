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
    var query: String?
    /// The body as the journal's task holds it: the `callId` members the SDK put first in each
    /// object on the wire (derived, never journaled) taken out, into ``callIDs``.
    var body: [UInt8]
    /// The calls' ids on the wire, in the order of the body's objects (or the query's).
    var callIDs: [WireCallID]
    var time: JournalTime
    /// The region whose endpoint received it.
    var region: String
    /// The events of a bulk the answer refused, by name: the project did not take them.
    var refusedEventNames: [String] = []

    init(idempotencyKey: String, project: ProjectFingerprint, path: String, query: String?, body wire: [UInt8], time: JournalTime,
         region: String) {
        self.idempotencyKey = idempotencyKey
        self.project = project
        self.path = path
        self.query = query
        (body, callIDs) = Self.splitCallIDs(wire)
        for pair in (query ?? "").split(separator: "&") where pair.hasPrefix(DeliveryTask.callIDKey + "=") {
            if let id = WireCallID(hex: pair.dropFirst(DeliveryTask.callIDKey.count + 1)) { callIDs.append(id) }
        }
        self.time = time
        self.region = region
    }

    /// `wire` without the `"callId":"<32 hex digits>"` member that opens each of its objects
    /// (and the comma after it), and those ids in order. Inside a JSON string a quote is
    /// escaped, so `{"callId":"` only ever opens an object.
    static func splitCallIDs(_ wire: [UInt8]) -> (body: [UInt8], ids: [WireCallID]) {
        let opening = Array(#"{"callId":""#.utf8)
        var body: [UInt8] = []
        body.reserveCapacity(wire.count)
        var ids: [WireCallID] = []
        var index = 0
        while index < wire.count {
            let end = index + opening.count + WireCallID.hexCount
            if wire[index] == UInt8(ascii: "{"), end < wire.count, wire[end] == UInt8(ascii: "\""),
               wire[index..<index + opening.count].elementsEqual(opening),
               let id = WireCallID(hex: String(decoding: wire[index + opening.count..<end], as: UTF8.self)) {
                ids.append(id)
                body.append(UInt8(ascii: "{"))
                index = end + 1
                if index < wire.count, wire[index] == UInt8(ascii: ",") { index += 1 }
                continue
            }
            body.append(wire[index])
            index += 1
        }
        return (body, ids)
    }

    /// The receipt-log lines of the calls it carried (docs/RECONCILE.md), `duplicate` when
    /// `seen` (the calls the project took before, updated) already holds the call.
    func receiptLines(seen: inout Set<WireCallID>) -> [ReceiptLine] {
        var lines: [ReceiptLine] = []
        func add(_ id: WireCallID, user: String?, status: Int) {
            let duplicate = !seen.insert(id).inserted
            lines.append(ReceiptLine(project: project, region: region, endpoint: path, callID: id, idempotencyKey: idempotencyKey,
                                     user: user, receivedAt: time, status: status, duplicate: duplicate))
        }
        let named = SimulatedBackend.usersNamed(body: body, query: query).first.map(Self.text)
        if path == DeliveryTask.bulkTrackPath, case .array(let events)? = JSONParser.parse(body)?["events"] {
            for (id, event) in zip(callIDs, events) {
                let refused = event["eventName"]?.stringValue.map(refusedEventNames.contains) ?? false
                add(id, user: Self.user(of: event) ?? named, status: refused ? 400 : 200)
            }
        } else {
            for id in callIDs { add(id, user: named, status: 200) }
        }
        return lines
    }

    /// The user an object names at its top, by email before id.
    private static func user(of object: JSONValue) -> String? {
        if let email = object["email"]?.stringValue { return "email:" + email }
        if let id = object["userId"]?.stringValue { return "userId:" + id }
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
