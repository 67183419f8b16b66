import Foundation
import Journal
import Locking
import SDKTesting
import Testing
import TestSupport
@testable import SDK

/// `settle(timeout:)` that times out leaves nothing behind.
@Suite("Field: settle(timeout:)", .tags(.endToEnd), .timeLimit(.minutes(1)))
struct SettleTimeoutTests {
    /// A transport that never answers: whatever the SDK sends stays in flight.
    final class SilentTransport: Transport {
        let sent = Locked(0)
        func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
            sent.withLock { $0 += 1 }
        }
    }

    @Test("polling settle(timeout:) while a request stays in flight returns false each time and leaves no waiter behind")
    func timedOutSettlesAreDropped() async throws {
        let transport = SilentTransport()
        let harness = try SDKHarness(transport: transport)
        let sdk = harness.sdk
        sdk.initialize(harness.us)
        sdk.setEmail("ada@example.com")
        sdk.track("never-answered")
        _ = sdk.engineView()
        #expect(transport.sent.withLock { $0 } == 1)
        for _ in 0..<50 {
            let due = harness.clock.now().advanced(byMilliseconds: 100)
            // The SDK's own timers may fall due then too: wait for the settle's to join them.
            let others = harness.clock.pendingTimers(dueAt: due)
            async let settled = sdk.settle(timeout: .milliseconds(100))
            while harness.clock.pendingTimers(dueAt: due) == others { await Task.yield() }
            harness.clock.advance(to: due)
            #expect(await settled == false)
        }
        #expect(sdk.engineView()?.settleWaiters == 0)
    }
}
