import Foundation
import Journal
import Testing
@testable import SDK

/// No state the SDK can reach is too large for one snapshot record: the queue is bounded by the
/// footprint of its tasks, the gate by its calls' bytes, every argument by ``CallLimits``, and
/// together they stay below the journal's record limit (docs/ARCHITECTURE.md, "Bounds"). Each
/// story drives the real `decide` with the network silent (nothing ever answers), filling every
/// bound in its own way, and measures the snapshot.
@Suite("Snapshot bound", .timeLimit(.minutes(2)))
struct SnapshotBoundTests {
    /// A state driven by `decide` alone: inputs at increasing times, nothing ever answered.
    struct Driver {
        var state = SDKState()
        var time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        var callNumber: UInt64 = 0
        var outcomes: [CallID: CallOutcome] = [:]

        init(rules: EngineRules = EngineRules()) {
            input(.engineStarted(EngineStart(sdkVersion: "0.1.0", restored: false, options: rules,
                                             modules: [ModuleDescriptor(name: "in-app", notifications: [])])))
        }

        mutating func input(_ fact: Fact) {
            time = time.advanced(byMilliseconds: 1)
            for decided in state.decide(fact, at: time) {
                for (call, outcome) in decided.resolutions { outcomes[call] = outcome }
            }
        }

        @discardableResult
        mutating func call(_ call: PublicCall) -> CallID {
            callNumber += 1
            let id = CallID(CallIDGenerator.sequentialUUID(callNumber))
            // The busiest caller ids are pointers: eight bytes each.
            input(.callReceived(ReceivedCall(id: id, caller: 0x7fff_ffff_ffff_ff00, call: call)))
            return id
        }

        var snapshotBytes: Int { StateCodec.encode(state).count }
    }

    static let longUser = String(repeating: "u", count: CallLimits.userIDBytes)
    static let longID = String(repeating: "m", count: CallLimits.identifierBytes)
    static let longURL = "https://" + String(repeating: "x", count: CallLimits.urlBytes - 8)
    static let longEndpoint = URL(string: "https://" + String(repeating: "e", count: 1_000) + ".example.com/api/")!

    static func project(_ key: String) -> ProjectRef {
        let config = ProjectConfig(region: .custom(longEndpoint), retryPolicy: RetryRules())
        return Project(apiKey: key, label: String(repeating: "L", count: Project.maxLabelBytes), config: config)!
            .reference(endpoints: .production)
    }

    /// The largest data-fields object a call may carry: strings at their limit, up to the object's.
    static let largestData: [String: DataValue] = {
        var fields: [String: DataValue] = [:]
        var index = 0
        // Each member's JSON: its quoted key, a colon, its quoted value, a comma.
        var bytes = 2
        while bytes + CallLimits.dataStringBytes + 64 < CallLimits.dataFieldsBytes {
            fields[String(format: "k%03d", index) + String(repeating: "k", count: CallLimits.dataKeyBytes - 4)] =
                .string(String(repeating: "v", count: CallLimits.dataStringBytes - CallLimits.dataKeyBytes))
            bytes += CallLimits.dataKeyBytes + 3 + CallLimits.dataStringBytes - CallLimits.dataKeyBytes + 3
            index += 1
        }
        return fields
    }()

    /// The snapshot of a state whose queue is full of `fill` calls, then (optionally) a switch
    /// whose gate fills with `gated` calls.
    static func snapshot(user: String?, filling fill: (Int) -> PublicCall, gated: ((Int) -> PublicCall)?) -> (bytes: Int, state: SDKState) {
        var driver = Driver()
        let us = project("us-key"), eu = project("eu-key")
        driver.call(.initialize(us))
        if let user { driver.call(.setUserId(user)) }
        driver.call(.registerToken(String(repeating: "t", count: CallLimits.pushTokenBytes)))
        driver.call(.inAppFetch(count: 100))
        var index = 0
        var refusedInARow = 0
        while refusedInARow < 3 && index < 40_000 {
            if user == nil, driver.state.heldEvents.count == SDKState.heldEventCapacity { break }
            let id = driver.call(fill(index))
            refusedInARow = driver.outcomes[id] == .discarded(.queueFull(capacity: driver.state.rules.queueCapacity)) ? refusedInARow + 1 : 0
            index += 1
        }
        if let gated {
            driver.call(.switchProject(eu))
            for index in 0..<(driver.state.rules.gateCapacity + 10) { driver.call(gated(index)) }
            #expect(driver.state.switching.gate.count > 0)
        }
        return (driver.snapshotBytes, driver.state)
    }

    @Test("the largest snapshot a full queue and a full gate make stays under the journal's record limit",
          arguments: ["tiny tracks", "tiny tracks, short user", "largest tracks", "largest inline calls", "largest carts", "held events"])
    func fullQueueAndGate(mix: String) {
        let fill: (Int) -> PublicCall = switch mix {
        case "tiny tracks", "tiny tracks, short user": { _ in .track(event: "e", dataFields: nil) }
        case "held events": { _ in .track(event: Self.longID, dataFields: Self.largestData) }
        case "largest tracks": { _ in .track(event: Self.longID, dataFields: Self.largestData) }
        case "largest inline calls": { _ in .inAppClick(messageID: Self.longID, url: Self.longURL) }
        default: { index in
            .updateCart(items: (0..<40).map { _ in CommerceItem(id: Self.longID, name: String(repeating: "n", count: CallLimits.itemNameBytes),
                                                                price: Double(index), quantity: 1, sku: Self.longID) })
        }
        }
        let user: String? = switch mix {
        case "tiny tracks, short user": "u"
        case "held events": nil
        default: Self.longUser
        }
        let (bytes, state) = Self.snapshot(user: user, filling: fill, gated: { _ in
            .track(event: Self.longID, dataFields: ["k": .string(String(repeating: "g", count: 200))])
        })
        // A kept disable is never refused by the queue's bounds (the switch queued one).
        let disables = state.tasks.values.filter(\.task.isDisableDevice).reduce(0) { $0 + $1.task.footprint }
        #expect(state.queueFootprint - disables <= state.rules.queueByteCapacity)
        #expect(bytes < SegmentFormat.maxRecordBytesLimit - 64, "\(mix): snapshot of \(bytes) bytes")
        print("snapshot bound: \(mix): \(bytes) bytes, \(state.queuedEvents) queued event(s), footprint \(state.queueFootprint), gate \(state.switching.gate.count) call(s) \(state.switching.gateBytes) bytes, \(state.heldEvents.count) held")
    }
}
