import Foundation
import Journal
import Locking
import Sandbox
import TestSupport
@testable import SDK

/// A random sequence of public calls with faults injected at the backend, for properties that
/// must hold whatever happens: every completion resolves exactly once, the live state equals a
/// fold of the journal, and `decide` reproduces every recorded decision.
struct RandomStory {
    var random: RandomFacts
    /// Completions handed out, to count deliveries.
    private(set) var outcomes: [Eventually<CallOutcome>] = []
    private(set) var switches: [Eventually<SwitchResult>] = []

    init(seed: UInt64) {
        random = RandomFacts(seed: seed)
    }

    /// Makes `count` random calls on `harness`, with random faults and switches when asked.
    mutating func run(_ harness: SDKHarness, count: Int, switching: Bool) {
        let sdk = harness.sdk
        sdk.initialize(harness.us)
        for _ in 0..<count {
            if random.int(0...9) == 0 { injectFault(harness) }
            let outcome = Eventually<CallOutcome>()
            outcomes.append(outcome)
            switch random.int(0...19) {
            case 0: sdk.setEmail(["ada@example.com", "grace@example.com", nil, "not-an-email"][random.int(0...3)], completion: outcome.completion)
            case 1: sdk.setUserId(["u1", "u2", nil, ""][random.int(0...3)], completion: outcome.completion)
            case 2: sdk.updateUser(dataFields: random.object(), completion: outcome.completion)
            case 3: sdk.updateCart(items: random.items(), completion: outcome.completion)
            case 4: sdk.trackPurchase(total: [9.99, .nan, 0][random.int(0...2)], items: random.items(), completion: outcome.completion)
            case 5, 6, 7: sdk.track(["viewed", "", "clicked"][random.int(0...2)], dataFields: random.bool() ? random.object() : nil, completion: outcome.completion)
            case 8: sdk.registerToken("token-\(random.int(0...2))", completion: outcome.completion)
            case 9: sdk.disableDevice(completion: outcome.completion)
            case 10: sdk.logoutUser(completion: outcome.completion)
            case 11: sdk.trackPushOpen(PushOpen(campaignID: 5, templateID: 6, messageID: "m\(random.int(0...9))", appAlreadyRunning: random.bool()),
                                       completion: outcome.completion)
            case 12: sdk.handlePush(payload: ["itbl": ["campaignId": 5, "templateId": 9, "messageId": "p1"]], completion: outcome.completion)
            case 13: sdk.fetchInAppMessages(count: random.int(0...12), completion: outcome.completion)
            case 14: sdk.trackInAppOpen(messageID: "m1", completion: outcome.completion)
            case 15: sdk.fetchEmbeddedMessages(completion: outcome.completion)
            case 16: sdk.setAttributionInfo(AttributionInfo(campaignID: 1, templateID: 2, messageID: "a"), completion: outcome.completion)
            case 17: sdk.flush(completion: outcome.completion)
            default:
                outcomes.removeLast()
                if switching {
                    let result = Eventually<SwitchResult>()
                    switches.append(result)
                    sdk.switchProject(to: [harness.us, harness.eu, harness.us2][random.int(0...2)], completion: result.completion)
                } else {
                    sdk.track("plain", completion: nil)
                }
            }
        }
    }

    private mutating func injectFault(_ harness: SDKHarness) {
        let faults: [Fault] = [.status(503), .status(500), .rateLimited, .status(400), .dropConnection, .status(404)]
        harness.sandbox.inject(faults[random.int(0...5)], matching: .any, times: random.int(1...3))
    }

    /// Settles the SDK and advances the clock past every timer until nothing is left to do.
    static func drain(_ harness: SDKHarness) async {
        for _ in 0..<200 {
            await harness.sdk.settle()
            guard let due = harness.clock.nextDue else { return }
            harness.clock.advance(to: due)
        }
    }
}

/// Records every (state, last sequence) the engine publishes.
final class StateRecorder: Sendable {
    private let states = Locked<[(SDKState, UInt64)]>([])

    var observer: @Sendable (SDKState, UInt64) -> Void {
        { [self] state, sequence in states.withLock { $0.append((state, sequence)) } }
    }

    var recorded: [(SDKState, UInt64)] { states.withLock { $0 } }
}
