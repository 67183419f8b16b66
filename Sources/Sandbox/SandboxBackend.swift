import Foundation

/// An in-process HTTP/1.1 server on 127.0.0.1 that imitates a customer-engagement REST API
/// (Iterable-like) for several projects, and records everything it receives.
///
/// The server listens on an ephemeral port from the moment it is created until ``shutdown()`` is
/// called or the instance is deinitialised; many instances can run side by side. Requests go to
/// `http://127.0.0.1:<port>/<region>/api/<endpoint>` (see ``baseURL(region:)``) and are
/// authenticated with the `Api-Key` header (and a bearer JWT for projects that require one). Tests
/// can queue ``Fault``s, inspect the ``ReceivedRequest`` log and wait for traffic without sleeping.
/// The server only ever listens on the loopback interface and never makes outgoing connections.
///
/// ## Threads and timing
///
/// Every method may be called from any thread, at any time, and returns without waiting for
/// traffic, except ``shutdown()`` (it joins the server's threads) and the async waits (which
/// suspend, never block a thread). The server runs one accept thread and one thread per connection,
/// at most 256 connections at once (further ones are closed at once); a connection idle for 60 s is
/// closed. A delayed or held response blocks only its own connection's thread. Request heads over
/// 64 KiB are answered 431 and bodies over 8 MiB 413, and neither is recorded.
public final class SandboxBackend: Sendable {
    /// The TCP port the server listens on, chosen by the kernel; fixed for the server's life.
    public let port: UInt16

    private let rootURL: URL
    private let registry = ProjectRegistry()
    private let tokens: JWTIssuer
    private let faults = FaultQueue()
    private let log = RequestLog()
    private let server: HTTPServer

    /// Registers `projects`, binds 127.0.0.1 on a port the kernel chooses and starts serving: a
    /// request sent once this returns is answered. `clock` is the time the backend's JWTs age by
    /// (``SandboxProject/jwtLifetime``): a test on a manual clock passes that clock's wall time.
    ///
    /// - Throws: ``SandboxBackendError`` when two projects share a name or API key, or the socket
    ///   cannot be set up; no thread is left running then.
    public init(projects: [SandboxProject] = [], clock: @escaping @Sendable () -> Date = Date.init) throws(SandboxBackendError) {
        tokens = JWTIssuer(clock: clock)
        for project in projects {
            try registry.register(project)
        }
        let api = SandboxAPI(projects: registry, tokens: tokens, faults: faults, ledger: IdempotencyLedger())
        do throws(SocketError) {
            server = try HTTPServer(api: api, log: log)
        } catch {
            throw .socketFailure(operation: error.operation, errno: error.code)
        }
        port = server.port
        let root = "http://127.0.0.1:\(port)/"
        guard let rootURL = URL(string: root) else {
            server.shutdown()
            throw .invalidBaseURL(root)
        }
        self.rootURL = rootURL
        server.start()
    }

    deinit {
        server.shutdown()
    }

    // MARK: - Addresses

    /// The base URL clients of `region` use: `http://127.0.0.1:<port>/<region>/api/`. A project's
    /// key is accepted only under its own region's URL.
    public func baseURL(region: String) -> URL {
        rootURL
            .appendingPathComponent(region, isDirectory: true)
            .appendingPathComponent("api", isDirectory: true)
    }

    /// Whether the server is still serving (false after ``shutdown()``).
    public var isRunning: Bool {
        server.isRunning
    }

    // MARK: - Projects and authentication

    /// Adds a project while the server runs; requests read after this returns know it.
    ///
    /// - Throws: ``SandboxBackendError/duplicateProjectName(_:)`` or
    ///   ``SandboxBackendError/duplicateAPIKey(_:)``; nothing is registered then.
    public func register(_ project: SandboxProject) throws(SandboxBackendError) {
        try registry.register(project)
    }

    /// The requests `project` answered with a 2xx, re-sends of an already answered
    /// `Idempotency-Key` excluded: what the project actually received, once each.
    public func delivered(project: String) -> [ReceivedRequest] {
        requests(project: project).filter { request in
            guard let status = request.status, (200..<300).contains(status) else { return false }
            return request.outcome != .duplicate
        }
    }

    /// The tracked events `project` received, in the order it received them: each event of
    /// ``delivered(project:)``'s `events/track` and `events/trackBulk` requests, bulk events the
    /// project refused (``SandboxProject/disallowedEventNames``) left out.
    public func deliveredEvents(project: String) -> [DeliveredEvent] {
        let refused = registry.allProjects.first { $0.name == project }?.disallowedEventNames ?? []
        return delivered(project: project).flatMap(\.trackedEvents).filter { !refused.contains($0.eventName) }
    }

    /// Every registered project, sorted by name.
    public var projects: [SandboxProject] {
        registry.allProjects
    }

    /// Issues a bearer token that authenticates requests of `project` until ``expireJWTs(project:)``.
    /// A token issued for an unregistered name authenticates nothing.
    public func issueJWT(project: String, subject: String) -> String {
        tokens.issue(projectName: project, subject: subject)
    }

    /// Expires every token issued so far for `project`; tokens issued afterwards are valid.
    public func expireJWTs(project: String) {
        tokens.expireAll(projectName: project)
    }

    /// `subject` signs in to `project`'s auth server: ``requestJWT(project:subject:)`` mints
    /// tokens for them until ``signOut(_:project:)``.
    public func signIn(_ subject: String, project: String) {
        tokens.setSignedIn(true, subject: subject, projectName: project)
    }

    /// `subject` signs out of `project`'s auth server: it refuses them tokens from now on (tokens
    /// issued before keep their lifetime).
    public func signOut(_ subject: String, project: String) {
        tokens.setSignedIn(false, subject: subject, projectName: project)
    }

    /// What an app's auth server answers its auth provider: a fresh token for `subject`, or
    /// nil when they are not signed in (``signIn(_:project:)``), as a server that mints tokens
    /// only for the signed-in user does.
    public func requestJWT(project: String, subject: String) -> String? {
        tokens.token(projectName: project, subject: subject)
    }

    // MARK: - Served content

    /// Sets the JSON array `GET inApp/getMessages` returns for `project` as `{"inAppMessages": json}`.
    /// - Throws: ``SandboxBackendError/notAJSONArray`` or ``SandboxBackendError/unknownProject(_:)``.
    public func setInAppMessages(_ json: Data, project: String) throws(SandboxBackendError) {
        try registry.setInAppMessages(json, projectName: project)
    }

    /// Sets the JSON array `GET embedded-messaging/messages` returns for `project` as `{"placements": json}`.
    /// - Throws: ``SandboxBackendError/notAJSONArray`` or ``SandboxBackendError/unknownProject(_:)``.
    public func setEmbeddedPlacements(_ json: Data, project: String) throws(SandboxBackendError) {
        try registry.setEmbeddedPlacements(json, projectName: project)
    }

    /// Serves a tracked link (see ``TrackedLink``) and returns its URL.
    @discardableResult
    public func setTrackedLink(_ link: TrackedLink) -> URL {
        registry.setTrackedLink(link)
        return trackedLinkURL(code: link.code)
    }

    /// Where the tracked link with this code is served.
    public func trackedLinkURL(code: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/a/\(code)")!
    }

    // MARK: - Fault injection

    /// Queues `fault` for the next `times` requests that pass authentication, reach a known endpoint
    /// and are selected by `matching`. Faults are consumed oldest first; `times < 1` queues nothing.
    public func inject(_ fault: Fault, matching: RequestMatcher = .any, times: Int = 1) {
        faults.enqueue(fault, matching: matching, times: times)
    }

    /// Discards every queued fault that has not been consumed yet.
    public func removeAllFaults() {
        faults.removeAll()
    }

    /// How many fault uses are still queued.
    public var pendingFaultCount: Int {
        faults.pendingCount
    }

    // MARK: - Recorded traffic

    /// Every recorded request, in arrival order: a copy, which requests recorded later do not
    /// change.
    public func requests() -> [ReceivedRequest] {
        log.entries
    }

    /// The recorded requests that authenticated as `project`, in arrival order (a copy).
    public func requests(project: String) -> [ReceivedRequest] {
        log.entries.filter { $0.isAuthenticated && $0.projectName == project }
    }

    /// The receipt log of every call the projects received so far (docs/RECONCILE.md): one NDJSON
    /// line per call an authenticated request carried (its `callId`: each event of a bulk its
    /// own line), in arrival order, with the project's key fingerprint (never the key), the
    /// region, endpoint, idempotency key, the user the request named, when it arrived by the
    /// backend's clock, the status answered (400 for a bulk event the project refused by name;
    /// null when the connection was dropped) and whether it was a re-send the project dedupes.
    /// What `replay reconcile --received` reads. A copy: requests recorded later do not change it.
    public func receiptLog() -> String {
        ReceiptLog.lines(of: log.entries, projects: registry.allProjects)
    }

    /// Writes ``receiptLog()`` to `url` (replaced if it exists).
    public func writeReceiptLog(to url: URL) throws {
        try Data(receiptLog().utf8).write(to: url, options: .atomic)
    }

    /// Empties the request log. Requests still in flight are recorded when they finish.
    public func clearRequests() {
        log.clear()
    }

    /// Suspends until the log holds at least `count` requests. Resumed by the server thread that
    /// records the request, never by polling; `timeout` is only a safety net.
    ///
    /// - Returns: true once the count is reached (at once if it already is), false if `timeout`
    ///   elapses or the task is cancelled first.
    public func waitForRequests(count: Int, timeout: Duration) async -> Bool {
        await log.waitForCount(count, timeout: timeout)
    }

    // MARK: - Lifecycle

    /// Stops accepting connections, closes every open connection (held or delayed requests are
    /// recorded as ``ReceivedRequest/Outcome/dropped``) and joins all server threads.
    ///
    /// Blocks the calling thread until the last server thread ended, which held and delayed
    /// requests do not hold up; once it returns, no thread of this server runs and its sockets are
    /// closed. Idempotent; also called on deinit. Recorded requests stay readable.
    public func shutdown() {
        server.shutdown()
    }
}
