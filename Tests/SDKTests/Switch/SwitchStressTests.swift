import Dispatch
import Foundation
import Journal
import Sandbox
import Locking
import Testing
import TestSupport
@testable import SDK

@Suite("Switch stress", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct SwitchStressTests {
    @Test("threads make calls while random switches (repeats included) run: the journal alone shows every call went where the contract says")
    func stress() async throws {
        let harness = try SDKHarness()
        let sdk = harness.sdk
        await sdk.outcome.initialize(harness.us)
        let projects = [harness.us, harness.eu, harness.us2]
        let outcomes = (0..<4).map { _ in (0..<150).map { _ in Eventually<CallOutcome>() } }
        let switches = Locked<[Eventually<SwitchResult>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var random = RandomFacts(seed: UInt64(worker))
            sdk.setEmail("worker\(worker)@example.com", completion: nil)
            for index in 0..<150 {
                if random.int(0...14) == 0 {
                    let project = projects[random.int(0...2)]
                    let result = Eventually<SwitchResult>()
                    switches.withLock { $0.append(result) }
                    sdk.switchProject(to: project, completion: result.completion)
                    if random.bool() { sdk.switchProject(to: project) { _ in } }   // a repeat
                }
                if index % 50 == 0 {
                    sdk.setEmail("worker\(worker)@example.com", completion: outcomes[worker][index].completion)
                } else {
                    sdk.track("w\(worker)-\(index)", completion: outcomes[worker][index].completion)
                }
            }
        }
        for result in switches.withLock({ $0 }) { _ = await result.value }
        await RandomStory.drain(harness)
        for worker in outcomes { for outcome in worker { #expect(outcome.deliveries == 1) } }
        for result in switches.withLock({ $0 }) { #expect(result.deliveries == 1) }
        let live = harness.sdk.liveProject
        harness.sdk.shutdown()

        let fold = try JournalFold(directory: harness.directory)
        let violations = ContractAudit(fold).violations()
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        // The story did exercise the gate: calls were held and replayed, and switches chained.
        let replayed = fold.entries.filter { if case .gateDecided(_, .replayed) = $0.fact { true } else { false } }.count
        let landed = fold.entries.filter { if case .switchLanded = $0.fact { true } else { false } }.count
        #expect(replayed > 0)
        #expect(landed > 3)
        // The chain settled on the project requested last (in mailbox order).
        let lastRequested = fold.entries.last { if case .switchRouted = $0.fact { true } else { false } }
        if case .switchRouted(_, _, let project, _)? = lastRequested?.fact { #expect(live == project.fingerprint) }
    }
}

/// Checks, from the journal alone, where each gated call went.
struct ContractAudit {
    let fold: JournalFold

    init(_ fold: JournalFold) {
        self.fold = fold
    }

    func violations() -> [String] {
        var violations: [String] = []
        var live: ProjectFingerprint?
        var switchInFlight = false
        var madeDuringSwitch: [CallID: Bool] = [:]
        var expectedProject: [CallID: ProjectFingerprint] = [:]
        var waitingForLanding: [CallID] = []
        var callOrder: [UInt64: [CallID]] = [:]
        var callNames: [CallID: PublicCall.Name] = [:]
        var taskOrder: [UInt64: [CallID]] = [:]
        var caller: [CallID: UInt64] = [:]
        var resolutions: [CallID: Int] = [:]
        for entry in fold.entries {
            switch entry.fact {
            case .initialized(let project, _):
                live = project.fingerprint
            case .switchStarted:
                switchInFlight = true
            case .switchLanded(_, let project, _, _):
                switchInFlight = false
                live = project
                for call in waitingForLanding { expectedProject[call] = project }
                waitingForLanding = []
            case .callReceived(let received):
                guard received.call.name.isGated else { continue }
                callNames[received.id] = received.call.name
                caller[received.id] = received.caller
                callOrder[received.caller, default: []].append(received.id)
                madeDuringSwitch[received.id] = switchInFlight
                if switchInFlight { waitingForLanding.append(received.id) } else if let live { expectedProject[received.id] = live }
            case .gateDecided(let call, let decision):
                guard let expected = expectedProject[call] ?? (madeDuringSwitch[call] == true ? nil : live) else {
                    if case .queued = decision { continue }
                    if madeDuringSwitch[call] != nil { violations.append("call \(call) decided before any landing: \(decision)") }
                    continue
                }
                switch decision {
                case .executed(let project), .replayed(_, let project):
                    if project != expected { violations.append("call \(call) ran on \(project), expected \(expected) (seq \(entry.sequence))") }
                case .queued, .inline, .refused:
                    break
                }
            case .taskQueued(let task):
                if let call = task.call, let expected = expectedProject[call], task.project != expected {
                    violations.append("call \(call)'s request went to \(task.project), expected \(expected) (seq \(entry.sequence))")
                }
                if let call = task.call, let thread = caller[call] { taskOrder[thread, default: []].append(call) }
            case .callResolved, .callsResolved:
                for (call, _) in entry.fact.resolutions { resolutions[call, default: 0] += 1 }
            default:
                break
            }
        }
        for (thread, calls) in taskOrder {
            let order = callOrder[thread] ?? []
            let positions = calls.compactMap { order.firstIndex(of: $0) }
            if positions != positions.sorted() { violations.append("thread \(thread)'s requests were queued out of call order") }
        }
        for (call, count) in resolutions where count != 1 { violations.append("call \(call) resolved \(count) times") }
        return violations
    }
}
