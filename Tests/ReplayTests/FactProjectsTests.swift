import Journal
import SDK
import Testing
@testable import ReplayKit

/// The projects a fact is about (`timeline --project`, the report's lanes, the fleet's `row_project`).
@Suite("the projects a fact is about", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct FactProjectsTests {
    @Test("a durability confirmation is about what its request was; a landed switch's callbacks, the project it landed on")
    func confirmationsAndCallbacks() async throws {
        let walk = try JournalWalk(reader: try JournalReader(directory: await DemoFixture.shared.journal().journal))
        var requested: [UInt64: [ProjectFingerprint]] = [:]
        var confirmations = 0, callbacks = 0
        while let record = try walk.next() {
            let state = walk.state
            switch record.fact {
            case .durabilityRequested(let request, .teardownDisable)?:
                requested[request] = FactProjects.mentioned(by: record.fact!, in: state)
            case .durabilityConfirmed(let confirmation)?:
                // While the switch that asked still runs (the demo's first disable is durable
                // within its bound; its last, after the switch landed and ended).
                if let asked = requested[confirmation.request], state.switching.inFlight != nil {
                    #expect(FactProjects.mentioned(by: record.fact!, in: state) == asked, "seq \(record.sequence)")
                    #expect(!asked.isEmpty)
                    confirmations += 1
                }
            case .callbacksDelivered?:
                #expect(FactProjects.mentioned(by: record.fact!, in: state) == [state.live!.fingerprint], "seq \(record.sequence)")
                callbacks += 1
            default:
                break
            }
            walk.fold(record)
        }
        #expect(confirmations >= 1 && callbacks >= 2)
    }
}
