/// Selects which requests an injected ``Fault`` applies to.
public enum RequestMatcher: Sendable {
    /// Every request.
    case any
    /// Requests to this endpoint, written as after `/api/`, e.g. `"users/update"`.
    case endpoint(String)
    /// Requests authenticated as the project with this name.
    case project(String)
    /// Requests sent to this region, e.g. `"eu"`.
    case region(String)
    /// Requests with this method (compared case-sensitively, e.g. `"GET"`).
    case method(String)
    /// Requests matched by every matcher in the list (an empty list matches everything).
    case all([RequestMatcher])
    /// Requests matched by at least one matcher in the list (an empty list matches nothing).
    case anyOf([RequestMatcher])
}

extension RequestMatcher: Equatable {}

extension RequestMatcher {
    /// The attributes of an authenticated request that matchers look at.
    struct Subject: Sendable {
        let method: String
        let region: String
        let endpoint: String
        let projectName: String
    }

    /// Whether this matcher selects `subject`.
    func matches(_ subject: Subject) -> Bool {
        switch self {
        case .any: true
        case .endpoint(let endpoint): subject.endpoint == endpoint
        case .project(let name): subject.projectName == name
        case .region(let region): subject.region == region
        case .method(let method): subject.method == method
        case .all(let matchers): matchers.allSatisfy { $0.matches(subject) }
        case .anyOf(let matchers): matchers.contains { $0.matches(subject) }
        }
    }
}
