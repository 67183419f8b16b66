import Foundation
import LoopbackHTTP

/// Answers one request of a connection, on a worker of the loopback server: reads it (its body
/// within the request's deadline), decides, waits out a delay or a hold, and returns the
/// response for the server to write. The connection stays open unless the client asks for
/// `Connection: close`, sends something unparseable, or the server shuts down.
///
/// Each request is recorded in the log before its response is written or its connection dropped.
struct ConnectionHandler: Sendable {
    let api: SandboxAPI
    let log: RequestLog
    let lifecycle: ServerLifecycle
    let limits: HTTPLimits

    /// Reads and answers the connection's next request.
    func respond(on connection: LoopbackConnection) -> ConnectionOutcome {
        guard !lifecycle.isShuttingDown else { return .close }
        var parser = HTTPRequestParser(channel: connection, limits: limits)
        let request: HTTPRequest
        do throws(HTTPParseError) {
            guard let next = try parser.nextRequest() else { return .close }
            request = next
        } catch {
            // Answers an unparseable request when the connection still works; the server then
            // closes it gracefully.
            guard let response = error.response else { return .close }
            return .respond(response.serialized(keepAlive: false), keepOpen: false)
        }
        connection.unread(parser.unparsedBytes)
        return serve(request)
    }

    /// Answers one parsed request.
    private func serve(_ request: HTTPRequest) -> ConnectionOutcome {
        let arrivalIndex = log.reserveArrivalIndex()
        let receivedAt = api.tokens.clock()
        let decision = api.decide(request)

        func record(status: Int?, outcome: ReceivedRequest.Outcome) {
            log.record(ReceivedRequest(
                arrivalIndex: arrivalIndex,
                request: request,
                decision: decision,
                status: status,
                outcome: outcome,
                jwtSubject: api.tokens.subject(of: SandboxAPI.bearerToken(in: request.headers)),
                receivedAt: receivedAt
            ))
        }

        let mayRespond: Bool
        switch decision.delivery {
        case .immediately:
            mayRespond = true
        case .after(let delay):
            mayRespond = lifecycle.block(on: WakeSignal(), timeout: delay)
        case .whenReleased(let gate):
            let signal = WakeSignal()
            gate.hold(signal)
            mayRespond = lifecycle.block(on: signal)
            gate.stopHolding(signal)
        case .never:
            record(status: nil, outcome: decision.outcome)
            return .close
        }
        guard mayRespond else {
            record(status: nil, outcome: .dropped)
            return .close
        }

        let keepAlive = request.wantsKeepAlive && !lifecycle.isShuttingDown
        record(status: decision.response.status, outcome: decision.outcome)
        let bytes = decision.response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD")
        return .respond(bytes, keepOpen: keepAlive)
    }
}
