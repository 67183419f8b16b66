import FuzzHarness
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

extension FactProjectsTests {
    @Test("every kind of fact that names a task is about a project when the task is queued")
    func factsNamingATask() throws {
        var tasks: Set<UInt64> = []
        for fact in SampleFacts.all {
            fact.forEachField { _, value in if case .task(let id) = value { tasks.insert(id.number) } }
        }
        var state = SDKState()
        let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        state.evolve(.initialized(project: CraftedJournal.us, generation: 1), at: time)
        for id in tasks.sorted() {
            state.evolve(.taskQueued(CraftedJournal.task(id, call: nil, project: CraftedJournal.us, path: "events/track")), at: time)
        }
        var checked = 0
        for fact in SampleFacts.all {
            var namesTask = false
            fact.forEachField { _, value in if case .task = value { namesTask = true } }
            guard namesTask else { continue }
            #expect(!FactProjects.mentioned(by: fact, in: state).isEmpty, "\(fact)")
            checked += 1
        }
        #expect(checked >= 7)
    }
}
