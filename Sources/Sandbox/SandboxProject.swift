/// A tenant of the sandbox: an API key bound to one data region.
public struct SandboxProject: Sendable, Hashable {
    /// A unique name used to look the project's traffic up, e.g. `"ios-app"`.
    public var name: String
    /// The value clients send in the `Api-Key` header. Unique across projects.
    public var apiKey: String
    /// The data region whose base URL the key is valid for, e.g. `"us"` or `"eu"`.
    public var region: String
    /// Whether requests must also carry `Authorization: Bearer <token>` with a token from
    /// ``SandboxBackend/issueJWT(project:subject:)``.
    public var requiresJWT: Bool
    /// Event names the project refuses: `events/track` answers 400 `DisallowedEventName`, and
    /// `events/trackBulk` accepts the request but lists the name in `disallowedEventNames`
    /// (those events are not delivered; the others are).
    public var disallowedEventNames: Set<String>
    /// Whether a JWT is accepted only for requests made for its subject, as the platform checks
    /// it: every user the body names (at its top, under `user`, as the current user of an email
    /// change, in each event of a bulk; or the query's `email`/`userId`) must be the token's `sub`.
    /// A request for another user is answered 401 `InvalidJwtPayload`. Off by default (tokens
    /// then authenticate the project only).
    public var jwtSubjectMustMatchUser: Bool
    /// How long a token the project issues stays valid, on the backend's clock
    /// (``SandboxBackend/init(projects:clock:)``): a request carrying an older one is answered
    /// 401 `InvalidJwtPayload` "JWT token is expired", as an hourly-expiring platform does. Nil:
    /// tokens expire only when ``SandboxBackend/expireJWTs(project:)`` says.
    public var jwtLifetime: Duration?

    /// Describes a project; register it with ``SandboxBackend/init(projects:clock:)`` or ``SandboxBackend/register(_:)``.
    public init(name: String, apiKey: String, region: String = "us", requiresJWT: Bool = false,
                disallowedEventNames: Set<String> = [], jwtSubjectMustMatchUser: Bool = false, jwtLifetime: Duration? = nil) {
        self.name = name
        self.apiKey = apiKey
        self.region = region
        self.requiresJWT = requiresJWT
        self.disallowedEventNames = disallowedEventNames
        self.jwtSubjectMustMatchUser = jwtSubjectMustMatchUser
        self.jwtLifetime = jwtLifetime
    }
}
