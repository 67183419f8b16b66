#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Locking

/// The loopback HTTP/1.1 server under the Sandbox and `replay serve`: it binds, accepts, reads
/// request heads, answers on a bounded pool of worker threads and shuts down cleanly; what a
/// request means is its handler's business.
///
/// One poller thread waits on every connection that is not being answered: it accepts, reads
/// request heads (a connection that sends nothing costs a descriptor and a buffer, no thread),
/// writes answers and closes connections at their deadlines (``HTTPLimits``). A connection whose
/// request head has arrived is handed to a worker, which runs the handler: it parses the request
/// (reading its body within the request's deadline) and returns the answer's bytes, which the
/// poller writes. At most ``HTTPLimits/workers`` handlers run at once and at most
/// ``HTTPLimits/backlog`` requests wait for one; a request over that is answered with the
/// `overloaded` bytes (a 503) at once. At ``HTTPLimits/maxConnections`` (or when descriptors run
/// out) a new connection closes the one that has waited longest for its request.
///
/// `SIGPIPE` is never raised (per socket), interrupted system calls resume, descriptors are
/// closed exactly once. After ``shutdown()`` returns no thread of the server runs and every
/// descriptor it opened is closed.
package final class LoopbackHTTPServer: Sendable {
    /// The port bound on every address.
    package let port: UInt16
    /// The addresses bound, in order.
    package let addresses: [String]
    /// The limits in force (``HTTPLimits/maxConnections`` lowered to fit the descriptor limit).
    package let limits: HTTPLimits

    let handler: @Sendable (LoopbackConnection) -> ConnectionOutcome
    let overloaded: [UInt8]
    let state = Locked(State())
    let wakeWrite: Int32
    private let wakeRead: Int32
    private let poller: ConnectionPoller
    private let jobs = DispatchSemaphore(value: 0)
    private let threads = DispatchGroup()

    /// What the poller, the workers and ``shutdown()`` share, under one lock.
    struct State {
        var isStarted = false
        var isShuttingDown = false
        /// Connections handed back by workers, with what to do with them.
        var handedBack: [(LoopbackConnection, ConnectionOutcome)] = []
        /// The descriptors of connections a worker has.
        var answering: [ObjectIdentifier: Int32] = [:]
        /// Requests waiting for a worker.
        var queue: [LoopbackConnection] = []
        var workerCount = 0
        /// Workers waiting for a request, or started and about to.
        var idleWorkers = 0
    }

    /// Binds `addresses` (IPv4 or IPv6 literals; the first on `port`, 0 for a free one, the
    /// others on the same port) and `optionalAddresses` where they can be bound (an IPv6
    /// loopback on a machine without IPv6 is left out), and listens; ``start()`` serves.
    /// `overloaded` is the whole answer to a request no worker can take (a 503 with
    /// `Connection: close`). `handler` runs on a worker thread, once per request.
    package init(addresses: [String], optionalAddresses: [String] = [], port: UInt16 = 0, limits: HTTPLimits,
                 overloaded: [UInt8], handler: @escaping @Sendable (LoopbackConnection) -> ConnectionOutcome) throws(SocketError) {
        var limits = limits
        if let descriptors = SystemSocket.descriptorLimit() {
            limits.maxConnections = max(1, min(limits.maxConnections, descriptors * 3 / 4))
        }
        var listeners: [ListeningSocket] = []
        var port = port
        for address in addresses {
            let listener = try ListeningSocket(address: address, port: port)
            port = listener.port
            listeners.append(listener)
        }
        for address in optionalAddresses {
            if let listener = try? ListeningSocket(address: address, port: port) { listeners.append(listener) }
        }
        guard let wake = SystemSocket.makeWakePipe() else { throw .lastError("pipe") }
        self.port = port
        self.addresses = listeners.map(\.address)
        self.limits = limits
        self.handler = handler
        self.overloaded = overloaded
        wakeWrite = wake.write
        wakeRead = wake.read
        poller = ConnectionPoller(listeners: listeners, wakeRead: wake.read)
    }

    /// Whether `text` is an IPv4 or IPv6 address literal (`127.0.0.1`, `::1`).
    package static func isAddressLiteral(_ text: String) -> Bool {
        ListeningSocket.isAddressLiteral(text)
    }

    /// Whether ``shutdown()`` has begun.
    package var isShuttingDown: Bool {
        state.withLock { $0.isShuttingDown }
    }

    /// Starts the poller thread. Does nothing after the first call or after ``shutdown()``.
    package func start() {
        let shouldStart = state.withLock { state in
            defer { state.isStarted = true }
            return !state.isStarted && !state.isShuttingDown
        }
        guard shouldStart else { return }
        threads.enter()
        let thread = Thread { [self, poller] in
            poller.run(server: self)
            threads.leave()
        }
        thread.name = "LoopbackHTTP.poller"
        thread.start()
    }

    /// Stops accepting, shuts every connection down (handlers still running see their reads
    /// fail), waits for every thread of the server and closes every descriptor. Idempotent; call
    /// it from any thread but the server's own.
    package func shutdown() {
        let (first, workers, wasStarted) = state.withLock { state in
            defer { state.isShuttingDown = true }
            if !state.isShuttingDown {
                for descriptor in state.answering.values { SystemSocket.shutdown(descriptor, SystemSocket.stopBoth) }
            }
            return (!state.isShuttingDown, state.workerCount, state.isStarted)
        }
        if first {
            for _ in 0..<workers { jobs.signal() }
            wake()
        }
        threads.wait()
        if first {
            if !wasStarted { poller.closeEverything() }
            // Every thread that could write to the pipe has ended (a write to a pipe whose
            // reading end is closed would raise SIGPIPE).
            SystemSocket.close(wakeWrite)
            SystemSocket.close(wakeRead)
        }
    }

    /// Wakes the poller (a byte on its pipe; a full pipe already wakes it).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Hands a connection whose request head arrived to a worker. Returns false when every worker
    /// is busy and the backlog is full (or the server is shutting down): the caller answers 503.
    func dispatch(_ connection: LoopbackConnection) -> Bool {
        let spawn: Bool? = state.withLock { state in
            guard !state.isShuttingDown else { return nil }
            let free = state.idleWorkers - state.queue.count
            var spawn = false
            if free <= 0 {
                if state.workerCount < limits.workers {
                    state.workerCount += 1
                    state.idleWorkers += 1
                    spawn = true
                } else if -free >= limits.backlog {
                    return nil
                }
            }
            connection.phase = .answering
            state.answering[ObjectIdentifier(connection)] = connection.descriptor
            state.queue.append(connection)
            return spawn
        }
        guard let spawn else { return false }
        if spawn { startWorker() }
        jobs.signal()
        return true
    }

    private func startWorker() {
        threads.enter()
        let thread = Thread { [self] in
            work()
            threads.leave()
        }
        thread.name = "LoopbackHTTP.worker"
        thread.stackSize = limits.workerStackBytes
        thread.start()
    }

    /// A worker: answers one queued request after another until shutdown.
    private func work() {
        while true {
            jobs.wait()
            let next: LoopbackConnection? = state.withLock { state in
                state.idleWorkers -= 1
                return state.queue.isEmpty ? nil : state.queue.removeFirst()
            }
            // Woken with nothing queued: only shutdown does that.
            guard let connection = next else { return }
            let outcome = handler(connection)
            let closeHere = state.withLock { state in
                state.answering[ObjectIdentifier(connection)] = nil
                state.idleWorkers += 1
                guard !state.isShuttingDown else { return true }
                state.handedBack.append((connection, outcome))
                return false
            }
            if closeHere {
                connection.close()
            } else {
                wake()
            }
        }
    }
}
