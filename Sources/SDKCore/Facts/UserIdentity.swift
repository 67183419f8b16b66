/// The user a request is made for, as the request names them: by email when the SDK knows one,
/// else by user id.
///
/// Every delivery task records the identity it was made for: a bulk request gathers the events
/// of one identity only, and a JWT is asked for, cached and sent for that identity only.
public enum UserIdentity: Sendable, Hashable {
    case email(String)
    case userID(String)

    /// The identity requests name for a user known by `email` and `userID` (the email wins, as
    /// in every request body); nil for an unknown user.
    public init?(email: String?, userID: String?) {
        if let email {
            self = .email(email)
        } else if let userID {
            self = .userID(userID)
        } else {
            return nil
        }
    }

    /// The email or the user id.
    public var value: String {
        switch self {
        case .email(let email): email
        case .userID(let userID): userID
        }
    }
}

extension UserIdentity: CustomStringConvertible {
    /// `email ada@example.com` or `userId 42`.
    public var description: String {
        switch self {
        case .email(let email): "email \(email)"
        case .userID(let userID): "userId \(userID)"
        }
    }
}
