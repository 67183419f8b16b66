import Foundation
import Locking

/// Issues JWT-shaped bearer tokens and remembers which are still valid.
///
/// Tokens are opaque to the sandbox: validity is decided by looking the exact string up, never by
/// decoding it, so forged or tampered tokens are always rejected. Expiry is explicit
/// (``expireAll(project:)``), never time based.
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
    }

    private struct State {
        var nextSerial = 0
        var tokens: [String: IssuedToken] = [:]
        /// Per project, the lowest serial that has not been expired.
        var firstValidSerial: [String: Int] = [:]
    }

    private let state = Locked(State())

    /// Issues a new token for `projectName` with the given `sub` claim.
    func issue(projectName: String, subject: String) -> String {
        state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            let token = Self.makeToken(projectName: projectName, subject: subject, serial: serial)
            state.tokens[token] = IssuedToken(projectName: projectName, subject: subject, serial: serial)
            return token
        }
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

    /// Checks the token from an `Authorization: Bearer` header against the authenticated project.
    func verify(_ token: String?, projectName: String) -> Verdict {
        guard let token, !token.isEmpty else { return .missing }
        return state.withLock { state in
            guard let issued = state.tokens[token] else { return .unrecognized }
            guard issued.projectName == projectName else { return .issuedForAnotherProject }
            guard issued.serial >= state.firstValidSerial[projectName, default: 0] else { return .expired }
            return .valid
        }
    }

    /// `header.payload.signature`, base64url encoded; the signature is random bytes.
    private static func makeToken(projectName: String, subject: String, serial: Int) -> String {
        let issuedAt = Int(Date().timeIntervalSince1970)
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
