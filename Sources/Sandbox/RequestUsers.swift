import Foundation

/// The users an API request is made for, as the platform reads them: `email` or `userId` at the
/// top of its JSON body, under `user` (commerce), as `currentEmail`/`currentUserId` (an email
/// change), in each event of a bulk, or in the query (message fetches).
enum RequestUsers {
    static func named(in request: HTTPRequest) -> [String] {
        var users: [String] = []
        for pair in (request.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "email" || parts[0] == "userId", let value = String(parts[1]).removingPercentEncoding {
                users.append(value)
            }
        }
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else { return users }
        let holders = [object, object["user"] as? [String: Any]].compactMap { $0 } + ((object["events"] as? [Any]) ?? []).compactMap { $0 as? [String: Any] }
        for holder in holders {
            for key in ["email", "userId", "currentEmail", "currentUserId"] {
                if let user = holder[key] as? String { users.append(user); break }
            }
        }
        return users
    }
}
