import Foundation
import Locking

/// Issues JWT-shaped bearer tokens and remembers which are still valid.
///
/// Tokens are opaque to the sandbox: validity is decided by looking the exact string up, never by
/// decoding it, so forged or tampered tokens are always rejected. A token expires when told
/// (``expireAll(projectName:)``), or once its project's lifetime has passed on the issuer's
/// clock. Its auth server mints tokens only for the subjects signed in to a project
/// (``token(projectName:subject:)``), as an app's server does.
final class JWTIssuer: Sendable {
    /// The result of checking a presented token against a project.
    enum Verdict: Equatable {
        case valid
        case missing
        case unrecognized
        case issuedForAnotherProject
        case expired
    }

    private struct IssuedToken {
        let projectName: String
        let subject: String
        let serial: Int
        let issuedAt: Date
    }

    private struct State {
        var nextSerial = 0
        var tokens: [String: IssuedToken] = [:]
        /// Per project, the lowest serial that has not been expired.
        var firstValidSerial: [String: Int] = [:]
        /// Per project, the subjects its auth server mints tokens for.
        var signedIn: [String: Set<String>] = [:]
    }

    private let state = Locked(State())
    /// The backend's clock (also the time its receipt log stamps).
    let clock: @Sendable () -> Date

    /// An issuer whose tokens' ages are read off `clock`.
    init(clock: @escaping @Sendable () -> Date) {
        self.clock = clock
    }

    /// Issues a new token for `projectName` with the given `sub` claim.
    func issue(projectName: String, subject: String) -> String {
        let now = clock()
        return state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            let token = Self.makeToken(projectName: projectName, subject: subject, serial: serial, issuedAt: now)
            state.tokens[token] = IssuedToken(projectName: projectName, subject: subject, serial: serial, issuedAt: now)
            return token
        }
    }

    /// `subject` signs in to (or out of) `projectName`'s auth server.
    func setSignedIn(_ signedIn: Bool, subject: String, projectName: String) {
        state.withLock { state in
            if signedIn {
                state.signedIn[projectName, default: []].insert(subject)
            } else {
                state.signedIn[projectName]?.remove(subject)
            }
        }
    }

    /// A fresh token for `subject`, if they are signed in to `projectName`'s auth server.
    func token(projectName: String, subject: String) -> String? {
        guard state.withLock({ $0.signedIn[projectName]?.contains(subject) == true }) else { return nil }
        return issue(projectName: projectName, subject: subject)
    }

    /// Expires every token issued so far for `projectName`; tokens issued later stay valid.
    func expireAll(projectName: String) {
        state.withLock { state in
            state.firstValidSerial[projectName] = state.nextSerial
        }
    }

    /// The `sub` claim of a token this issuer issued (valid or expired), or nil.
    func subject(of token: String?) -> String? {
        guard let token else { return nil }
        return state.withLock { $0.tokens[token]?.subject }
    }

    /// Checks the token from an `Authorization: Bearer` header against the authenticated project,
    /// whose tokens live `lifetime` (nil: until expired by hand).
    func verify(_ token: String?, projectName: String, lifetime: Duration?) -> Verdict {
        guard let token, !token.isEmpty else { return .missing }
        let now = clock()
        return state.withLock { state in
            guard let issued = state.tokens[token] else { return .unrecognized }
            guard issued.projectName == projectName else { return .issuedForAnotherProject }
            guard issued.serial >= state.firstValidSerial[projectName, default: 0] else { return .expired }
            if let lifetime, now.timeIntervalSince(issued.issuedAt) >= Double(lifetime.components.seconds) {
                return .expired
            }
            return .valid
        }
    }

    /// `header.payload.signature`, base64url encoded; the signature is random bytes.
    private static func makeToken(projectName: String, subject: String, serial: Int, issuedAt date: Date) -> String {
        let issuedAt = Int(date.timeIntervalSince1970)
        let header: [String: Any] = ["alg": "HS256", "typ": "JWT"]
        let payload: [String: Any] = [
            "sub": subject,
            "project": projectName,
            "jti": serial,
            "iat": issuedAt,
            "exp": issuedAt + 3600,
        ]
        var generator = SystemRandomNumberGenerator()
        let signature = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return [encodedJSON(header), encodedJSON(payload), Data(signature).base64URLEncodedString()]
            .joined(separator: ".")
    }

    private static func encodedJSON(_ object: [String: Any]) -> String {
        // Plain strings and integers always serialise; the fallback keeps the token well-formed regardless.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return data.base64URLEncodedString()
    }
}

private extension Data {
    /// Base64 with the URL-safe alphabet and no padding, as JWTs use.
    func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
