#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The poller of a ``LoopbackHTTPServer``: one thread that accepts, reads request heads, writes
/// answers, lingers and closes, for every connection no worker has, all without blocking.
///
/// `@unchecked Sendable`: its state is touched by the poller thread only (by ``closeEverything()``
/// only when that thread never started), and handed to it once, when the thread starts.
final class ConnectionPoller: @unchecked Sendable { // safe: only the poller thread touches its state (see above).
    private let listeners: [ListeningSocket]
    private let wakeRead: Int32
    private var connections: [LoopbackConnection] = []
    /// When accepting may resume after the descriptors ran out and nothing could be closed.
    private var acceptPausedUntil: ContinuousClock.Instant?

    /// How long and how much a closing connection is read (and discarded) before it is closed.
    static let lingerTime: Duration = .seconds(2)
    static let lingerBytes = 1 << 20
    private static let receiveSize = 64 * 1024

    init(listeners: [ListeningSocket], wakeRead: Int32) {
        self.listeners = listeners
        self.wakeRead = wakeRead
    }

    /// Closes every listener and every connection it has (the wake pipe is the server's to close,
    /// once no thread can write to it).
    func closeEverything() {
        listeners.forEach { $0.close() }
        connections.forEach { $0.close() }
        connections = []
    }

    /// Serves until `server` shuts down, then closes everything it has.
    func run(server: LoopbackHTTPServer) {
        defer {
            let late = server.state.withLock { state in
                defer { state.handedBack = [] }
                return state.handedBack
            }
            late.forEach { $0.0.close() }
            closeEverything()
        }
        var entries: [pollfd] = []
        while true {
            let (handedBack, stopping) = server.state.withLock { state in
                defer { state.handedBack = [] }
                return (state.handedBack, state.isShuttingDown)
            }
            if stopping { return }
            for (connection, outcome) in handedBack {
                connections.append(connection)
                finish(connection, outcome, server: server)
            }
            let now = ContinuousClock.now
            if let paused = acceptPausedUntil, paused <= now { acceptPausedUntil = nil }
            entries.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            let accepting = acceptPausedUntil == nil
            if accepting {
                for listener in listeners { entries.append(pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)) }
            }
            var earliest = acceptPausedUntil
            connections.removeAll { $0.isClosed }
            let polled = connections
            for connection in polled {
                let events: Int32
                let deadline: ContinuousClock.Instant
                switch connection.phase {
                case .reading(_, let until): (events, deadline) = (Int32(POLLIN), until)
                case .writing(_, _, let until, _): (events, deadline) = (Int32(POLLOUT), until)
                case .lingering(_, let until, _): (events, deadline) = (Int32(POLLIN), until)
                case .answering: preconditionFailure("a connection a worker has is not the poller's")
                }
                entries.append(pollfd(fd: connection.descriptor, events: Int16(events), revents: 0))
                if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
            }
            let timeout = earliest.map { Int32(max(1, SystemSocket.milliseconds(until: $0))) } ?? -1
            let ready = poll(&entries, nfds_t(entries.count), timeout)
            if ready < 0 && errno != EINTR { acceptPausedUntil = ContinuousClock.now + .milliseconds(10) }
            if ready > 0 {
                if entries[0].revents != 0 { drainWakePipe() }
                var index = 1
                if accepting {
                    for listener in listeners {
                        if entries[index].revents != 0 { acceptAll(on: listener, server: server) }
                        index += 1
                    }
                }
                // `polled` holds no connection a worker has (those leave ``connections``), so its
                // entries follow the listeners' one for one.
                var readyConnections: [LoopbackConnection] = []
                for connection in polled {
                    if entries[index].revents != 0 { readyConnections.append(connection) }
                    index += 1
                }
                for connection in readyConnections where !connection.isClosed {
                    serve(connection, server: server)
                }
            }
            expire(now: ContinuousClock.now)
            connections.removeAll { $0.isClosed }
        }
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Accepts every waiting connection, making room at the connection limit.
    private func acceptAll(on listener: ListeningSocket, server: LoopbackHTTPServer) {
        while true {
            switch listener.accept() {
            case .connection(let descriptor):
                admit(LoopbackConnection(descriptor: descriptor, limits: server.limits), server: server)
            case .none, .closed:
                return
            case .retry:
                continue
            case .exhausted:
                if !evictOldest() {
                    acceptPausedUntil = ContinuousClock.now + .milliseconds(50)
                    return
                }
            }
        }
    }

    private func admit(_ connection: LoopbackConnection, server: LoopbackHTTPServer) {
        let answering = server.state.withLock { $0.answering.count }
        connections.append(connection)
        let open = connections.reduce(0) { $1.isClosed ? $0 : $0 + 1 } + answering
        if open > server.limits.maxConnections, !evictOldest(sparing: connection) {
            respond(connection, with: server.overloaded, keepOpen: false, server: server)
        }
    }

    /// Closes the connection that has lingered longest or, when none lingers, the one that has
    /// waited longest for a request. Returns false when there is none.
    @discardableResult
    private func evictOldest(sparing spared: LoopbackConnection? = nil) -> Bool {
        var oldestLingering: (LoopbackConnection, ContinuousClock.Instant)?
        var oldestReading: (LoopbackConnection, ContinuousClock.Instant)?
        for connection in connections where connection !== spared && !connection.isClosed {
            switch connection.phase {
            case .lingering(let since, _, _):
                if oldestLingering.map({ since < $0.1 }) ?? true { oldestLingering = (connection, since) }
            case .reading(let since, _):
                if oldestReading.map({ since < $0.1 }) ?? true { oldestReading = (connection, since) }
            case .answering, .writing:
                continue
            }
        }
        guard let victim = oldestLingering?.0 ?? oldestReading?.0 else { return false }
        victim.close()
        return true
    }

    /// Acts on a ready connection according to its phase.
    private func serve(_ connection: LoopbackConnection, server: LoopbackHTTPServer) {
        switch connection.phase {
        case .reading:
            guard let bytes = receive(on: connection) else { return }
            guard !bytes.isEmpty else {
                connection.close()
                return
            }
            connection.buffer += bytes
            if connection.requestDeadline == nil {
                let deadline = ContinuousClock.now + server.limits.requestTimeout
                connection.requestDeadline = deadline
                if case .reading(let since, _) = connection.phase { connection.phase = .reading(since: since, deadline: deadline) }
            }
            handOver(connection, server: server)
        case .writing(let bytes, let offset, _, let keepOpen):
            write(connection, bytes, from: offset, keepOpen: keepOpen, server: server)
        case .lingering(let since, let deadline, let drained):
            guard let bytes = receive(on: connection) else { return }
            if bytes.isEmpty || drained + bytes.count > Self.lingerBytes {
                connection.close()
            } else {
                connection.phase = .lingering(since: since, deadline: deadline, drained: drained + bytes.count)
            }
        case .answering:
            return
        }
    }

    /// What a ready connection has to read (empty once the peer closed its side), or nil when
    /// nothing is there yet or the receive failed, in which case the connection is closed.
    private func receive(on connection: LoopbackConnection) -> [UInt8]? {
        do throws(SocketError) {
            return try connection.receiveAvailable(maxBytes: Self.receiveSize)
        } catch {
            connection.close()
            return nil
        }
    }

    /// Gives the connection to a worker once its request head is buffered (503 when none can take it).
    private func handOver(_ connection: LoopbackConnection, server: LoopbackHTTPServer) {
        guard connection.hasRequestHead else { return }
        if connection.requestDeadline == nil {
            connection.requestDeadline = ContinuousClock.now + server.limits.requestTimeout
        }
        if server.dispatch(connection) {
            connections.removeAll { $0 === connection }
        } else {
            respond(connection, with: server.overloaded, keepOpen: false, server: server)
        }
    }

    /// Acts on what a worker's handler decided.
    private func finish(_ connection: LoopbackConnection, _ outcome: ConnectionOutcome, server: LoopbackHTTPServer) {
        switch outcome {
        case .respond(let bytes, let keepOpen):
            respond(connection, with: bytes, keepOpen: keepOpen, server: server)
        case .close:
            connection.close()
        }
    }

    private func respond(_ connection: LoopbackConnection, with bytes: [UInt8], keepOpen: Bool, server: LoopbackHTTPServer) {
        connection.phase = .writing(bytes: bytes, offset: 0, deadline: ContinuousClock.now + server.limits.sendTimeout, keepOpen: keepOpen)
        write(connection, bytes, from: 0, keepOpen: keepOpen, server: server)
    }

    /// Writes what the socket takes now; once all is written, reads the next request or lingers.
    private func write(_ connection: LoopbackConnection, _ bytes: [UInt8], from offset: Int, keepOpen: Bool, server: LoopbackHTTPServer) {
        let written: Int
        do throws(SocketError) {
            written = try connection.sendAvailable(bytes, from: offset)
        } catch {
            connection.close()
            return
        }
        guard written == bytes.count else {
            if case .writing(_, _, let deadline, _) = connection.phase {
                connection.phase = .writing(bytes: bytes, offset: written, deadline: deadline, keepOpen: keepOpen)
            }
            return
        }
        let now = ContinuousClock.now
        if keepOpen && !server.isShuttingDown {
            connection.requestDeadline = connection.buffer.isEmpty ? nil : now + server.limits.requestTimeout
            connection.phase = .reading(since: now, deadline: connection.requestDeadline ?? now + server.limits.idleTimeout)
            handOver(connection, server: server)
        } else {
            SystemSocket.shutdown(connection.descriptor, SystemSocket.stopWriting)
            connection.phase = .lingering(since: now, deadline: now + Self.lingerTime, drained: 0)
        }
    }

    /// Closes every connection past its deadline.
    private func expire(now: ContinuousClock.Instant) {
        for connection in connections where !connection.isClosed {
            switch connection.phase {
            case .reading(_, let deadline), .writing(_, _, let deadline, _), .lingering(_, let deadline, _):
                if deadline <= now { connection.close() }
            case .answering:
                continue
            }
        }
    }
}
