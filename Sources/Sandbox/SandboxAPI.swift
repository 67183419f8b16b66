import Foundation

/// The imitated customer-engagement API: routing, authentication, fault injection and answers.
///
/// Pure decision logic over the shared state; it never touches sockets or blocks.
struct SandboxAPI: Sendable {
    let projects: ProjectRegistry
    let tokens: JWTIssuer
    let faults: FaultQueue
    let ledger: IdempotencyLedger

    /// Decides the response to `request`, consuming a matching fault when one is queued.
    ///
    /// Order: path shape (404), API key (401), region (401), JWT (401), endpoint (404),
    /// injected fault, normal answer.
    func decide(_ request: HTTPRequest) -> APIDecision {
        if request.path.hasPrefix("/a/") { return decideTrackedLink(request) }
        let apiKey = request.headers["api-key"].flatMap { $0.isEmpty ? nil : $0 }
        let project = apiKey.flatMap(projects.project(apiKey:))

        guard let route = APIRoute(path: request.path) else {
            return reject(404, code: "NotFound", "no API route for \(request.path)", project: project)
        }
        guard let apiKey else {
            return reject(401, code: "BadApiKey", "missing Api-Key header", route: route)
        }
        guard let project else {
            return reject(401, code: "BadApiKey", "unknown API key \(apiKey)", route: route)
        }
        guard project.region == route.region else {
            let message = "key for region \(project.region) sent to region \(route.region)"
            return reject(401, code: "BadApiKey", message, route: route, project: project)
        }
        if project.requiresJWT, let problem = jwtProblem(in: request, project: project) {
            return reject(401, code: "InvalidJwtPayload", problem, route: route, project: project)
        }
        if project.requiresJWT, project.jwtSubjectMustMatchUser,
           let subject = tokens.subject(of: Self.bearerToken(in: request.headers)),
           let other = RequestUsers.named(in: request).first(where: { $0 != subject }) {
            return reject(401, code: "InvalidJwtPayload", "token issued for \(subject), request made for \(other)", route: route, project: project)
        }
        guard let endpoint = APIEndpoint(path: route.endpoint, method: request.method) else {
            let message = "unknown endpoint \(request.method) \(route.endpoint)"
            var decision = reject(404, code: "NotFound", message, route: route, project: project)
            decision.isAuthenticated = true
            return decision
        }

        var decision = APIDecision(
            route: route,
            project: project,
            isAuthenticated: true,
            response: successResponse(for: endpoint, project: project, body: request.body),
            outcome: .accepted
        )
        let subject = RequestMatcher.Subject(
            method: request.method,
            region: route.region,
            endpoint: route.endpoint,
            projectName: project.name
        )
        if let fault = faults.consume(for: subject) {
            apply(fault, to: &decision)
        }
        if let key = request.headers["idempotency-key"], !key.isEmpty, decision.response.status < 300,
           !Self.neverAnswered(decision), !ledger.firstUse(of: key, project: project.name) {
            decision.outcome = .duplicate
        }
        return decision
    }

    /// A tracked link: its redirect, or 404 for an unknown code. Faults match it as the endpoint
    /// `a/<code>` in the region `links` of the link's project.
    private func decideTrackedLink(_ request: HTTPRequest) -> APIDecision {
        let code = String(request.path.dropFirst(3))
        let route = APIRoute(region: "links", endpoint: "a/" + code)
        guard request.method == "GET", let link = projects.trackedLink(code: code) else {
            return reject(404, code: "NotFound", "no tracked link \(code)", route: route)
        }
        var response = HTTPResponse(status: 303, body: Data())
        response.extraFields.append(.init(name: "Location", value: link.destination))
        response.extraFields.append(.init(name: "Set-Cookie", value: "iterableEmailCampaignId=\(link.campaignID); Path=/"))
        response.extraFields.append(.init(name: "Set-Cookie", value: "iterableTemplateId=\(link.templateID); Path=/"))
        response.extraFields.append(.init(name: "Set-Cookie", value: "iterableMessageId=\(link.messageID); Path=/"))
        let project = projects.allProjects.first { $0.name == link.project }
        var decision = APIDecision(route: route, project: project, isAuthenticated: true, response: response, outcome: .accepted)
        let subject = RequestMatcher.Subject(method: request.method, region: route.region, endpoint: route.endpoint, projectName: link.project)
        if let fault = faults.consume(for: subject) { apply(fault, to: &decision) }
        return decision
    }

    private static func neverAnswered(_ decision: APIDecision) -> Bool {
        if case .never = decision.delivery { true } else { false }
    }

    private func successResponse(for endpoint: APIEndpoint, project: SandboxProject, body: Data) -> HTTPResponse {
        switch endpoint.answer {
        case .trackedEvent:
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            if let name = object?["eventName"] as? String, project.disallowedEventNames.contains(name) {
                return .apiResult(status: 400, code: "DisallowedEventName", message: "event name \(name) is not allowed by project \(project.name)")
            }
            return .apiResult(status: 200, code: "Success", message: "")
        case .trackedEvents:
            guard let answer = BulkTrackAnswer(body: body, project: project) else {
                return .apiResult(status: 400, code: "InvalidJsonBody", message: "events/trackBulk takes {\"events\": [<event objects>]}")
            }
            return answer.response
        case .inAppMessages:
            return .wrapping(jsonArray: projects.inAppMessages(projectName: project.name), under: "inAppMessages")
        case .embeddedMessages:
            return .wrapping(jsonArray: projects.embeddedPlacements(projectName: project.name), under: "placements")
        case .stored:
            return .apiResult(status: 200, code: "Success", message: "")
        }
    }

    private func apply(_ fault: Fault, to decision: inout APIDecision) {
        decision.outcome = .faulted(fault)
        switch fault {
        case .status(let code):
            let status = (200...599).contains(code) ? code : 500
            decision.response = .apiResult(status: status, code: "GenericError", message: "injected status \(status)")
        case .rateLimited:
            decision.response = .apiResult(status: 429, code: "RateLimitExceeded", message: "too many requests")
            decision.response.extraFields.append(.init(name: "Retry-After", value: "1"))
        case .jwtExpired:
            decision.response = .apiResult(status: 401, code: "InvalidJwtPayload", message: "JWT token is expired")
        case .dropConnection:
            decision.delivery = .never
        case .latency(let delay):
            decision.delivery = .after(delay)
        case .hold(let gate):
            decision.delivery = .whenReleased(gate)
        }
    }

    /// Why the request's bearer token does not authenticate `project`, or nil when it does.
    private func jwtProblem(in request: HTTPRequest, project: SandboxProject) -> String? {
        switch tokens.verify(Self.bearerToken(in: request.headers), projectName: project.name, lifetime: project.jwtLifetime) {
        case .valid: nil
        case .missing: "missing bearer token"
        case .unrecognized: "unrecognized token"
        case .issuedForAnotherProject: "token was issued for another project"
        case .expired: "JWT token is expired"
        }
    }

    /// The token of an `Authorization: Bearer <token>` header (scheme matched case-insensitively).
    static func bearerToken(in headers: HTTPHeaders) -> String? {
        guard let authorization = headers["authorization"] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .httpWhitespace)
    }

    private func reject(
        _ status: Int,
        code: String,
        _ message: String,
        route: APIRoute? = nil,
        project: SandboxProject? = nil
    ) -> APIDecision {
        APIDecision(
            route: route,
            project: project,
            response: .apiResult(status: status, code: code, message: message),
            outcome: .rejected(reason: message)
        )
    }
}
