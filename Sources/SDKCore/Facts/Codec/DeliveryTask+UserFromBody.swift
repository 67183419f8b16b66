import Foundation

extension DeliveryTask {
    /// The user a request names, read from its JSON body or its query: what a task written before
    /// tasks recorded their user (journal format 1.3 and older) was made for. The SDK builds
    /// every body naming the user by email, else by user id: at the top level (`email`,
    /// `userId`), inside `user` (commerce), or as the current user of an email change
    /// (`currentEmail`, `currentUserId`); a fetch names them in its query.
    static func userNamed(body: [UInt8], query: String?) -> UserIdentity? {
        if let query {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding else { continue }
                if parts[0] == "email" { return .email(value) }
                if parts[0] == "userId" { return .userID(value) }
            }
        }
        guard !body.isEmpty, let object = JSONParser.parse(body) else { return nil }
        for holder in [object, object["user"]].compactMap({ $0 }) {
            if let email = holder["email"]?.stringValue { return .email(email) }
            if let userID = holder["userId"]?.stringValue { return .userID(userID) }
        }
        if let email = object["currentEmail"]?.stringValue { return .email(email) }
        if let userID = object["currentUserId"]?.stringValue { return .userID(userID) }
        return nil
    }
}
