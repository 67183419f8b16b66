import Dispatch
import Foundation
import Locking

/// Tracks everything shutdown has to interrupt: open connections, blocked waits and running threads.
///
/// Connection descriptors are shut down (never closed) from here, and only while they are still
/// registered; their owning thread unregisters a descriptor before closing it, so a recycled
/// descriptor number is never touched.
final class ServerLifecycle: Sendable {
    private struct State {
        var isShuttingDown = false
        var openConnections: Set<Int32> = []
        var blockedWaits: [ObjectIdentifier: WakeSignal] = [:]
    }

    private let state = Locked(State())
    private let threads = DispatchGroup()
    private let maxConnections: Int

    init(maxConnections: Int) {
        self.maxConnections = maxConnections
    }

    /// Whether ``beginShutdown()`` has been called.
    var isShuttingDown: Bool {
        state.withLock { $0.isShuttingDown }
    }

    /// Runs `body` on a new thread that ``waitForThreads()`` joins.
    func spawnThread(named name: String, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            body()
            threads.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Registers a freshly accepted connection.
    /// - Returns: false when shutting down or at the connection limit; the caller then closes it.
    func admitConnection(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            guard !state.isShuttingDown, state.openConnections.count < maxConnections else { return false }
            state.openConnections.insert(descriptor)
            return true
        }
    }

    /// Unregisters a connection; call before closing its descriptor.
    func retireConnection(_ descriptor: Int32) {
        _ = state.withLock { $0.openConnections.remove(descriptor) }
    }

    /// Blocks the calling server thread until `signal` fires or `timeout` (if any) elapses.
    /// Shutdown fires the signal early.
    /// - Returns: false when the server is shutting down and the caller should abandon its request.
    func block(on signal: WakeSignal, timeout: Duration? = nil) -> Bool {
        let key = ObjectIdentifier(signal)
        let isRegistered = state.withLock { state in
            guard !state.isShuttingDown else { return false }
            state.blockedWaits[key] = signal
            return true
        }
        guard isRegistered else { return false }
        signal.wait(timeout: timeout)
        return state.withLock { state in
            state.blockedWaits[key] = nil
            return !state.isShuttingDown
        }
    }

    /// Stops admitting work, shuts down every open connection and wakes every blocked wait.
    /// Idempotent. Does not wait; see ``waitForThreads()``.
    func beginShutdown() {
        let blockedWaits = state.withLock { state in
            state.isShuttingDown = true
            for descriptor in state.openConnections {
                SystemSocket.shutdown(descriptor, SystemSocket.stopBoth)
            }
            return Array(state.blockedWaits.values)
        }
        blockedWaits.forEach { $0.fire() }
    }

    /// Blocks until every thread started with ``spawnThread(named:_:)`` has finished.
    func waitForThreads() {
        threads.wait()
    }
}
