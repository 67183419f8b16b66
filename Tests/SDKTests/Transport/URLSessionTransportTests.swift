import Foundation
import Locking
import Sandbox
import SDK
import Testing

extension TransportTests {
    /// `URLSessionTransport` talking HTTP/1.1 to a real `SandboxBackend` on loopback.
    @Suite("URLSessionTransport", .tags(.endToEnd), .timeLimit(.minutes(3)))
    struct URLSessionTransportTests {
        static let usProject = SandboxProject(name: "ios-app", apiKey: "us-key", region: "us")
        static let euProject = SandboxProject(name: "eu-app", apiKey: "eu-key", region: "eu")
        static let jwtProject = SandboxProject(name: "secure-app", apiKey: "jwt-key", region: "us", requiresJWT: true)

        let backend: SandboxBackend
        let transport = URLSessionTransport()

        init() throws {
            backend = try SandboxBackend(projects: [Self.usProject, Self.euProject, Self.jwtProject])
        }

        /// A POST of `body` to `endpoint` with the headers the SDK sends. Its timeout is long
        /// unless a test says otherwise: a request the sandbox holds must not come back `timed
        /// out` on its own on a busy machine (the suite's time limit still bounds a hang).
        func post(
            _ endpoint: String,
            project: SandboxProject = usProject,
            body: String = "{}",
            extraHeaders: [(name: String, value: String)] = [],
            timeout: Duration = PatientTransport.timeout
        ) throws -> TransportRequest {
            TransportRequest(
                method: .post,
                url: try #require(backend.url(endpoint, region: project.region)),
                headers: [
                    ("Api-Key", project.apiKey),
                    ("SDK-Version", "6.5.0"),
                    ("SDK-Platform", "iOS"),
                ] + extraHeaders,
                body: Data(body.utf8),
                timeout: timeout
            )
        }

        // MARK: - Requests arrive intact

        @Test(arguments: [usProject, euProject])
        func postArrivesIntactAtTheRightProjectAndRegion(project: SandboxProject) async throws {
            defer { transport.invalidate() }
            let body = #"{"email":"user@example.com","dataFields":{"plan":"gold","seats":3}}"#
            let request = try post(
                "users/update",
                project: project,
                body: body,
                extraHeaders: [("Authorization", "Bearer x"), ("Sent-At", "1767225600000")]
            )

            let result = await transport.result(for: request)

            #expect(result.status == 200)
            #expect(result.apiCode == "Success")
            let received = try #require(backend.requests(project: project.name).first)
            #expect(backend.requests().count == 1)
            #expect(received.method == "POST")
            #expect(received.region == project.region)
            #expect(received.endpoint == "users/update")
            #expect(received.outcome == .accepted)
            #expect(received.body == Data(body.utf8))
            #expect(received.headers["api-key"] == project.apiKey)
            #expect(received.headers["sdk-version"] == "6.5.0")
            #expect(received.headers["sdk-platform"] == "iOS")
            #expect(received.headers["authorization"] == "Bearer x")
            #expect(received.headers["sent-at"] == "1767225600000")
            #expect(received.headers["content-type"] == "application/json")
        }

        @Test func anExplicitContentTypeIsKept() async throws {
            defer { transport.invalidate() }
            let request = try post("events/track", extraHeaders: [("Content-Type", "application/json; charset=utf-8")])

            let result = await transport.result(for: request)

            #expect(result.status == 200)
            #expect(backend.requests().first?.headers["content-type"] == "application/json; charset=utf-8")
        }

        @Test func aLargeBodyArrivesIntact() async throws {
            defer { transport.invalidate() }
            let items = (0..<20_000).map { #"{"id":"item-\#($0)","price":\#($0).5}"# }
            let body = #"{"email":"user@example.com","items":[\#(items.joined(separator: ","))]}"#
            let request = try post("commerce/updateCart", body: body)

            let result = await transport.result(for: request)

            #expect(result.status == 200)
            #expect(backend.requests().first?.body == Data(body.utf8))
        }

        @Test func getCarriesItsQueryString() async throws {
            defer { transport.invalidate() }
            try backend.setInAppMessages(Data(#"[{"messageId":"m1"}]"#.utf8), project: Self.usProject.name)
            let query = "count=10&platform=iOS&SDKVersion=6.5.0&email=user%40example.com"
            let request = TransportRequest(
                method: .get,
                url: try #require(backend.url("inApp/getMessages?\(query)", region: "us")),
                headers: [("Api-Key", Self.usProject.apiKey), ("SDK-Version", "6.5.0"), ("SDK-Platform", "iOS")],
                body: nil
            )

            let result = await transport.result(for: request)

            #expect(result.status == 200)
            let messages = try #require(result.jsonObject?["inAppMessages"] as? [[String: Any]])
            #expect(messages.map { $0["messageId"] as? String } == ["m1"])
            let received = try #require(backend.requests(project: Self.usProject.name).first)
            #expect(received.method == "GET")
            #expect(received.endpoint == "inApp/getMessages")
            #expect(received.query == query)
            #expect(received.body.isEmpty)
            #expect(received.headers["content-type"] == nil)
        }

        @Test func aGETWithABodyIsANetworkErrorAtOnce() throws {
            defer { transport.invalidate() }
            let request = TransportRequest(
                method: .get,
                url: try #require(backend.url("inApp/getMessages", region: "us")),
                headers: [("Api-Key", Self.usProject.apiKey)],
                body: Data("{}".utf8)
            )
            let recorder = CompletionRecorder()

            transport.send(request, completion: recorder.record)

            #expect(recorder.results.first?.networkErrorDescription?.contains("GET") == true)
            #expect(backend.requests().isEmpty)
        }

        // MARK: - Connections

        #if canImport(FoundationNetworking)
        @Test func onLinuxEachRequestUsesAFreshConnectionByDefault() async throws {
            defer { transport.invalidate() }

            let result = await transport.result(for: try post("events/track"))

            #expect(!URLSessionTransport.reusesConnectionsByDefault)
            #expect(result.status == 200)
            #expect(backend.requests().first?.headers["connection"] == "close")
        }

        @Test func aDroppedConnectionAfterEarlierRequestsIsANetworkErrorAndNotResent() async throws {
            defer { transport.invalidate() }
            let first = await transport.result(for: try post("events/track", body: #"{"n":1}"#))
            backend.inject(.dropConnection)

            let second = await transport.result(for: try post("events/track", body: #"{"n":2}"#))
            let third = await transport.result(for: try post("events/track", body: #"{"n":3}"#))

            #expect(first.status == 200)
            #expect(second.networkErrorDescription != nil)
            #expect(third.status == 200)
            let received = backend.requests().map { String(decoding: $0.body, as: UTF8.self) }
            #expect(received == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#])
        }
        #endif

        @Test func aReusingTransportKeepsConnectionsAlive() async throws {
            transport.invalidate()  // This test uses a transport of its own.
            let reusing = URLSessionTransport(reusesConnections: true)
            defer { reusing.invalidate() }

            var statuses: [Int?] = []
            for index in 0..<3 {
                statuses.append(await reusing.result(for: try post("events/track", body: #"{"n":\#(index)}"#)).status)
            }

            #expect(statuses == [200, 200, 200])
            #expect(backend.requests().map { $0.headers["connection"] } == Array(repeating: "keep-alive", count: 3))
        }

        // MARK: - Error statuses are responses

        @Test func aWrongKeyComesBackAs401WithItsBody() async throws {
            defer { transport.invalidate() }
            let request = try post("events/track", project: SandboxProject(name: "nobody", apiKey: "wrong-key"))

            let result = await transport.result(for: request)

            #expect(result.status == 401)
            #expect(result.apiCode == "BadApiKey")
            #expect(result.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(backend.requests().first?.isAuthenticated == false)
        }

        @Test func anInjectedStatusComesBackAsAResponse() async throws {
            defer { transport.invalidate() }
            backend.inject(.status(503))

            let result = await transport.result(for: try post("events/track"))

            #expect(result.status == 503)
            #expect(result.apiCode == "GenericError")
            #expect(backend.requests().first?.outcome == .faulted(.status(503)))
        }

        @Test func rateLimitingShowsRetryAfterUnderALowercasedName() async throws {
            defer { transport.invalidate() }
            backend.inject(.rateLimited)

            let result = await transport.result(for: try post("events/track"))

            #expect(result.status == 429)
            #expect(result.headers["retry-after"] == "1")
            #expect(result.headers.keys.allSatisfy { $0 == $0.lowercased() })
        }

        @Test func anExpiredJWTComesBackAs401() async throws {
            defer { transport.invalidate() }
            let token = backend.issueJWT(project: Self.jwtProject.name, subject: "user@example.com")
            backend.inject(.jwtExpired)
            let request = try post(
                "events/track", project: Self.jwtProject, extraHeaders: [("Authorization", "Bearer \(token)")]
            )

            let result = await transport.result(for: request)

            #expect(result.status == 401)
            #expect(result.apiCode == "InvalidJwtPayload")
            #expect(backend.requests().first?.outcome == .faulted(.jwtExpired))
        }

        // MARK: - No response is a network error

        @Test func aDroppedConnectionIsANetworkError() async throws {
            defer { transport.invalidate() }
            backend.inject(.dropConnection)

            let result = await transport.result(for: try post("users/update", body: #"{"email":"a@b.c"}"#))

            #expect(result.networkErrorDescription != nil)
            let dropped = try #require(backend.requests().first)
            #expect(dropped.outcome == .faulted(.dropConnection))
            #expect(dropped.jsonObject?["email"] as? String == "a@b.c")
        }

        @Test func aRefusedConnectionIsANetworkError() async throws {
            defer { transport.invalidate() }
            let request = try post("events/track")
            backend.shutdown()

            let result = await transport.result(for: request)

            #expect(result.networkErrorDescription != nil)
        }

        @Test func aRequestThatOutlivesItsTimeoutIsANetworkError() async throws {
            defer { transport.invalidate() }
            let gate = ResponseHold()
            defer { gate.release() }
            backend.inject(.hold(gate))
            let recorder = CompletionRecorder()

            let request = try post("events/track", timeout: .milliseconds(200))

            let result = await transport.result(for: request, recorder: recorder)

            // Which layer's timer reports it first (ours or libcurl's) depends on the load.
            #expect(result.networkErrorDescription != nil)
            #expect(gate.heldCount == 1)
            #expect(recorder.results.count == 1)
        }

        // MARK: - In flight

        @Test func aHeldRequestCompletesOnlyOnceReleased() async throws {
            defer { transport.invalidate() }
            let gate = ResponseHold()
            backend.inject(.hold(gate))
            let recorder = CompletionRecorder()
            transport.send(try post("events/track"), completion: recorder.record)

            #expect(await gate.waitUntilHeld(count: 1))
            #expect(recorder.results.isEmpty)
            #expect(backend.requests().isEmpty)
            gate.release()
            let results = await recorder.waitForCount(1)

            #expect(results.map(\.status) == [200])
            #expect(backend.requests().map(\.outcome) == [.faulted(.hold(gate))])
        }

        @Test(arguments: [false, true])
        func manyConcurrentSendsEachCompleteExactlyOnce(reusesConnections: Bool) async throws {
            transport.invalidate()  // This test uses a transport of its own.
            let sender = URLSessionTransport(reusesConnections: reusesConnections)
            defer { sender.invalidate() }
            let count = 64
            let requests = try (0..<count).map { try post("events/track", body: #"{"eventName":"e\#($0)"}"#) }
            let completions = Locked([Int](repeating: 0, count: count))

            let statuses = await withTaskGroup(of: Int?.self) { group in
                for (index, request) in requests.enumerated() {
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            sender.send(request) { result in
                                let isFirst = completions.withLock { completions in
                                    completions[index] += 1
                                    return completions[index] == 1
                                }
                                if isFirst {
                                    continuation.resume(returning: result.status)
                                }
                            }
                        }
                    }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }

            #expect(statuses == Array(repeating: 200, count: count))
            #expect(completions.withLock { $0 } == Array(repeating: 1, count: count))
            let names = backend.requests().compactMap { $0.jsonObject?["eventName"] as? String }
            #expect(Set(names) == Set((0..<count).map { "e\($0)" }))
            #expect(names.count == count)
        }

        // MARK: - Invalidation

        @Test func invalidatingCancelsRequestsInFlight() async throws {
            let gate = ResponseHold()
            defer { gate.release() }
            backend.inject(.hold(gate))
            let recorder = CompletionRecorder()
            transport.send(try post("events/track"), completion: recorder.record)
            #expect(await gate.waitUntilHeld(count: 1))

            transport.invalidate()
            let results = await recorder.waitForCount(1)

            #expect(results.count == 1)
            #expect(results.first?.networkErrorDescription != nil)
        }

        @Test func releasingTheTransportCancelsRequestsInFlight() async throws {
            transport.invalidate()  // This test uses a transport of its own.
            let gate = ResponseHold()
            defer { gate.release() }
            backend.inject(.hold(gate))
            let recorder = CompletionRecorder()
            do {
                let ownTransport = URLSessionTransport()
                ownTransport.send(try post("events/track"), completion: recorder.record)
                #expect(await gate.waitUntilHeld(count: 1))
                withExtendedLifetime(ownTransport) {}
            }

            let results = await recorder.waitForCount(1)

            #expect(results.count == 1)
            #expect(results.first?.networkErrorDescription != nil)
        }

        @Test func sendingAfterInvalidationIsANetworkErrorAtOnce() throws {
            transport.invalidate()
            transport.invalidate()
            let recorder = CompletionRecorder()

            transport.send(try post("events/track"), completion: recorder.record)

            #expect(recorder.results.count == 1)
            #expect(recorder.results.first?.networkErrorDescription?.contains("invalidated") == true)
            #expect(backend.requests().isEmpty)
        }

        // MARK: - Requests that cannot be sent

        @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/hostname", "http:///no-host", "mailto:user@example.com"])
        func aURLThatCannotBeSentIsANetworkErrorAtOnce(address: String) throws {
            defer { transport.invalidate() }
            let request = TransportRequest(method: .get, url: try #require(URL(string: address)), headers: [], body: nil)
            let recorder = CompletionRecorder()

            transport.send(request, completion: recorder.record)

            #expect(recorder.results.count == 1)
            #expect(recorder.results.first?.networkErrorDescription != nil)
        }

        @Test func aPortOutOfRangeIsANetworkError() async throws {
            defer { transport.invalidate() }
            let url = try #require(URL(string: "http://127.0.0.1:99999/us/api/inApp/getMessages"))
            let request = TransportRequest(method: .get, url: url, headers: [], body: nil)

            let result = await transport.result(for: request)

            #expect(result.networkErrorDescription != nil)
        }

        @Test func anUppercaseSchemeIsSentAsHTTP() async throws {
            defer { transport.invalidate() }
            let url = try #require(backend.url("events/track", region: "us"))
            let spelling = url.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")
            let request = TransportRequest(
                method: .post,
                url: try #require(URL(string: spelling)),
                headers: [("Api-Key", Self.usProject.apiKey)],
                body: Data("{}".utf8)
            )

            let result = await transport.result(for: request)

            #expect(result.status == 200)
        }

        @Test(arguments: [
            ("X-Smuggled", "a\r\nApi-Key: eu-key"),
            ("Bad Name", "value"),
            ("", "value"),
            ("X-Null", "a\u{0}b"),
        ])
        func aHeaderThatCannotBeSentIsANetworkErrorAtOnce(name: String, value: String) throws {
            defer { transport.invalidate() }
            let recorder = CompletionRecorder()

            transport.send(try post("events/track", extraHeaders: [(name, value)]), completion: recorder.record)

            #expect(recorder.results.count == 1)
            #expect(recorder.results.first?.networkErrorDescription?.contains("header") == true)
            #expect(backend.requests().isEmpty)
        }

        @Test(arguments: [Duration.zero, .seconds(-1)])
        func aTimeoutThatIsNotPositiveIsANetworkErrorAtOnce(timeout: Duration) throws {
            defer { transport.invalidate() }
            let recorder = CompletionRecorder()

            transport.send(try post("events/track", timeout: timeout), completion: recorder.record)

            #expect(recorder.results.first?.networkErrorDescription?.contains("timeout") == true)
        }

        @Test func aHugeTimeoutStillWorks() async throws {
            defer { transport.invalidate() }

            let result = await transport.result(for: try post("events/track", timeout: .seconds(Int64.max)))

            #expect(result.status == 200)
        }
    }
}
