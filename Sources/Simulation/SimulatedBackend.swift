import Foundation
import Journal
import ReplayKit
import SDK
import Sandbox

/// The engagement platform, in process: it knows the catalog's projects by API key and region,
/// issues and expires JWTs, injects server-side faults, and records every request it processed
/// (``receipts``), so a story's end can compare what each project received with the journal.
///
/// Single-threaded, no sockets: the simulated world calls it when a request arrives.
final class SimulatedBackend {
    /// Every request processed (answered 2xx), in arrival order.
    private(set) var receipts: [BackendReceipt] = []
    /// Requests that reached a backend they did not belong to (an unknown key, a key sent to
    /// another region's base URL): each is a misrouting by the SDK.
    private(set) var misroutes: [String] = []
    /// How many requests arrived, processed or not.
    private(set) var arrivals = 0
    /// Each JWT project's current token generation: tokens of older generations have expired.
    private var tokenGeneration: [ProjectFingerprint: Int] = [:]
    private let projectsByKey: [String: SimulatedProject]

    init(projects: [SimulatedProject] = SimulatedProject.catalog) {
        projectsByKey = Dictionary(projects.map { ($0.apiKey, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// How long a JWT is accepted after it was issued (ms; 0: until ``expireTokens(of:)``).
    var tokenLifetimeMilliseconds: Int64 = 0

    /// A token the backend accepts for `project` until its tokens expire (or, with a
    /// ``tokenLifetimeMilliseconds``, until that long after `time`), issued for `user` (the
    /// identity the app was on when it asked) on SDK instance `instance`.
    func issueToken(for project: ProjectFingerprint, user: String?, instance: UInt64, at time: JournalTime) -> String {
        let token = validPrefix(project) + "|" + (user ?? "-") + "|" + String(instance)
        guard tokenLifetimeMilliseconds > 0 else { return token }
        return token + "|" + String(time.microsecondsSince1970 / 1_000 + tokenLifetimeMilliseconds)
    }

    private func validPrefix(_ project: ProjectFingerprint) -> String {
        "jwt-\(project.hex)-\(tokenGeneration[project, default: 0])"
    }

    /// Every token issued so far for `project` stops working.
    func expireTokens(of project: ProjectFingerprint) {
        tokenGeneration[project, default: 0] += 1
    }

    /// Processes a request that arrived at `time`: authenticates it, maybe injects a fault,
    /// records it when accepted, and returns what the client would make of the answer.
    func process(_ request: SimulatedRequest, at time: JournalTime, profile: FaultProfile,
                 random: inout SimulationRandom) -> TransportResult {
        arrivals += 1
        guard let project = projectsByKey[request.apiKey] else {
            misroutes.append("\(request.path) with idempotency key \(request.idempotencyKey) carried an unknown API key")
            return Self.answer(401, code: "BadApiKey")
        }
        guard SimulatedProject.regionOfEndpoint[request.endpoint] == project.region else {
            misroutes.append("\(request.path) with idempotency key \(request.idempotencyKey): project \(project.name)'s key (region \(project.region)) sent to \(request.endpoint)")
            return Self.answer(401, code: "BadApiKey")
        }
        // Each request leaves under its own user: it names one user at most, the one its task
        // was made for.
        let named = Self.usersNamed(body: request.body, query: request.query)
        if named.count > 1 {
            misroutes.append("\(request.path) with idempotency key \(request.idempotencyKey) on \(project.name) names \(named.count) users: "
                             + named.map(\.description).joined(separator: ", "))
        } else if let user = named.first, user.value != request.user {
            misroutes.append("\(request.path) with idempotency key \(request.idempotencyKey) on \(project.name) names \(user), "
                             + "but the engine sent it for user \(request.user ?? "-")")
        }
        if project.usesJWT {
            if random.chance(profile.tokenExpiry) { expireTokens(of: project.fingerprint) }
            guard let token = request.token else { return Self.answer(401, code: "InvalidJwtPayload") }
            let parts = token.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4, parts[0] == validPrefix(project.fingerprint) else {
                return Self.answer(401, code: "InvalidJwtPayload")
            }
            // A token issued with a lifetime names when it expires.
            if parts.count == 4, let expires = Int64(parts[3]), time.microsecondsSince1970 / 1_000 >= expires {
                return Self.answer(401, code: "InvalidJwtPayload")
            }
            // A JWT belongs to one user on one instance: one issued for another is a token that
            // crossed users (or instances).
            if parts[1] != (request.user ?? "-") || parts[2] != String(request.instance) {
                misroutes.append("\(request.path) with idempotency key \(request.idempotencyKey) on \(project.name) carried a JWT issued for user \(parts[1]) on instance \(parts[2]), "
                                 + "but was sent for user \(request.user ?? "-") on instance \(request.instance)")
                return Self.answer(401, code: "InvalidJwtPayload")
            }
            // The body is the judge of whom a request is for, whatever the engine said.
            if named.count <= 1, parts[1] != (named.first?.value ?? "-") {
                misroutes.append("\(request.path) with idempotency key \(request.idempotencyKey) on \(project.name) carried a JWT issued for user \(parts[1]), "
                                 + "but its body names \(named.first.map(\.description) ?? "no user")")
                return Self.answer(401, code: "InvalidJwtPayload")
            }
        }
        // Routed by the Sandbox's table: a path or method it does not list is the SDK's mistake,
        // answered 404 as the Sandbox answers it.
        guard let endpoint = APIEndpoint(path: request.path, method: request.method) else {
            misroutes.append("\(request.method) \(request.path) with idempotency key \(request.idempotencyKey) on \(project.name): no such endpoint")
            return Self.answer(404, code: "NotFound")
        }
        if random.chance(profile.serverError) { return .response(status: random.pick([500, 502, 503]), headers: [:], body: Data()) }
        if random.chance(profile.tooManyRequests) { return Self.answer(429, code: "RateLimitExceeded") }
        var receipt = BackendReceipt(idempotencyKey: request.idempotencyKey, project: project.fingerprint, path: request.path,
                                     query: request.query, body: request.body, time: time, region: project.region)
        defer { receipts.append(receipt) }
        switch endpoint.answer {
        case .inAppMessages:
            return Self.answer(200, #"{"code":"Success","inAppMessages":[{"messageId":"ia-\#(project.name)-1"},{"messageId":"ia-\#(project.name)-2"}]}"#)
        case .embeddedMessages:
            return Self.answer(200, #"{"code":"Success","placements":[{"embeddedMessages":[{"metadata":{"messageId":"em-\#(project.name)-1"}}]}]}"#)
        case .trackedEvents:
            let (answer, refused) = Self.bulkAnswer(to: request.body, refusing: random.chance(profile.eventRefusal), random: &random)
            receipt.refusedEventNames = refused
            return answer
        // Stored, answered with the platform's plain success.
        case .stored, .trackedEvent:
            return Self.success
        }
    }

    private static let success = answer(200, code: "Success")

    /// The receipt log of every request processed (docs/RECONCILE.md): one line per call each
    /// carried, in arrival order, as the Sandbox writes it and `replay reconcile` reads it. A
    /// call a project took before is marked `duplicate` (the simulated backend stores it once).
    func receiptLog() -> [ReceiptLine] {
        var seen: [ProjectFingerprint: Set<WireCallID>] = [:]
        return receipts.flatMap { receipt in receipt.receiptLines(seen: &seen[receipt.project, default: []]) }
    }

    /// The distinct users a request names, in the order it names them: at the top of its body
    /// (`email`, `userId`), in its `user` (commerce), as the current user of an email change
    /// (`currentEmail`, `currentUserId`), in each of a bulk's `events`, and in its query (a
    /// message fetch). A body that names a user by email and by id in one place names the
    /// email (the SDK never writes both).
    static func usersNamed(body bytes: [UInt8], query: String?) -> [UserIdentity] {
        var users: [UserIdentity] = []
        func note(_ user: UserIdentity?) {
            if let user, !users.contains(user) { users.append(user) }
        }
        func holder(_ value: JSONValue?, email: String = "email", userID: String = "userId") {
            guard let value else { return }
            note(UserIdentity(email: value[email]?.stringValue, userID: value[userID]?.stringValue))
        }
        if let query {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding else { continue }
                if parts[0] == "email" { note(.email(value)) }
                if parts[0] == "userId" { note(.userID(value)) }
            }
        }
        guard !bytes.isEmpty, let body = JSONParser.parse(bytes) else { return users }
        holder(body)
        holder(body["user"])
        holder(body, email: "currentEmail", userID: "currentUserId")
        if case .array(let events)? = body["events"] {
            for event in events { holder(event) }
        }
        return users
    }

    /// The answer to an `events/trackBulk` body: every event accepted, or, when `refusing`, the
    /// name of one event drawn from the body listed in `disallowedEventNames` (every event of
    /// that name refused).
    private static func bulkAnswer(to body: [UInt8], refusing: Bool, random: inout SimulationRandom) -> (TransportResult, refused: [String]) {
        guard case .array(let events)? = JSONParser.parse(body)?["events"] else { return (answer(400, code: "InvalidJsonBody"), []) }
        let names = events.compactMap { $0["eventName"]?.stringValue }
        var refused: [String] = []
        if refusing, !names.isEmpty { refused = [random.pick(names)] }
        let failures = names.filter(refused.contains).count
        let list = refused.map { "\"\($0)\"" }.joined(separator: ",")
        return (answer(200, #"{"code":"Success","successCount":\#(events.count - failures),"failCount":\#(failures),"disallowedEventNames":[\#(list)],"invalidEmails":[],"invalidUserIds":[]}"#), refused)
    }

    /// An answer with the API's `code` in its JSON body.
    private static func answer(_ status: Int, code: String) -> TransportResult {
        answer(status, #"{"code":"\#(code)"}"#)
    }

    private static func answer(_ status: Int, _ json: String) -> TransportResult {
        .response(status: status, headers: ["content-type": "application/json"], body: Data(json.utf8))
    }
}
