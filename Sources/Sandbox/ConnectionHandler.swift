import Foundation

/// Serves the requests of one connection, on that connection's thread, until the client closes,
/// asks for `Connection: close`, sends something unparseable, or the server shuts down.
///
/// Each request is recorded in the log before its response is written or its connection dropped.
final class ConnectionHandler {
    private let socket: ClientSocket
    private let api: SandboxAPI
    private let log: RequestLog
    private let lifecycle: ServerLifecycle
    private let limits: HTTPLimits
    private var parser: HTTPRequestParser

    init(socket: ClientSocket, api: SandboxAPI, log: RequestLog, lifecycle: ServerLifecycle, limits: HTTPLimits) {
        self.socket = socket
        self.api = api
        self.log = log
        self.lifecycle = lifecycle
        self.limits = limits
        self.parser = HTTPRequestParser(channel: socket, limits: limits)
    }

    /// Serves requests until the connection ends, then closes the socket.
    func run() {
        socket.configure(idleTimeout: limits.idleTimeout)
        defer {
            lifecycle.retireConnection(socket.descriptor)
            socket.close()
        }
        while !lifecycle.isShuttingDown {
            let request: HTTPRequest
            do throws(HTTPParseError) {
                guard let next = try parser.nextRequest() else { return }
                request = next
            } catch {
                reject(error)
                return
            }
            guard serve(request) else { return }
        }
    }

    /// Answers one parsed request. Returns whether the connection should stay open.
    private func serve(_ request: HTTPRequest) -> Bool {
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
            return false
        }
        guard mayRespond else {
            record(status: nil, outcome: .dropped)
            return false
        }

        let keepAlive = request.wantsKeepAlive && !lifecycle.isShuttingDown
        record(status: decision.response.status, outcome: decision.outcome)
        let bytes = decision.response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD")
        do {
            try socket.send(bytes)
        } catch {
            return false
        }
        return keepAlive
    }

    /// Answers an unparseable request (when the connection still works) and prepares a graceful close.
    private func reject(_ error: HTTPParseError) {
        guard let response = error.response else { return }
        try? socket.send(response.serialized(keepAlive: false))
        socket.finishWritingAndDrain(limit: 1024 * 1024, timeout: .seconds(2))
    }
}
