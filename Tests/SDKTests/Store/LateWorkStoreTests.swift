import Simulation
import Testing
@testable import SDK

/// Late work of an outgoing instance is refused, even after the next one started, over the real
/// `EngineShell` in the simulator's world (``EngineStore``): the link host and the backend answer
/// when the test lets the clock reach them, so "late" is exact. No thread, no socket.
@Suite("Late work (store)", .timeLimit(.minutes(1)))
struct LateWorkStoreTests {
    static let link = "https://links.sim.test/a/x1"

    /// A store on A with ada signed in whose link host answers after `linkMilliseconds`.
    static func onA(linkMilliseconds: Int64 = 10) -> EngineStore {
        var timing = EngineStore.Timing()
        timing.linkMilliseconds = linkMilliseconds
        return EdgesStoreTests.on(.A, timing: timing)
    }

    @Test("a tracked link resolves into its destination and attribution")
    func resolvesTrackedLinks() {
        let store = Self.onA()
        let tracked = store.handleUniversalLink(Self.link)
        store.settle()
        #expect(store.linkResults[tracked] == UniversalLinkResult(outcome: .applied(project: store.fingerprint(.A)), destination: "https://shop.sim.test/x1"))
        #expect(store.state.attribution == AttributionInfo(campaignID: 41, templateID: 42, messageID: "x1"))
    }

    @Test("a link resolution of A that comes back after the switch to B landed is refused and journaled; B's attribution stays the app's own")
    func lateResolutionAfterLandingIsRefused() {
        let store = Self.onA(linkMilliseconds: 1_000)
        let late = store.handleUniversalLink(Self.link)
        store.switchProject(to: .B)
        store.advance(byMilliseconds: 100)
        #expect(store.state.live?.fingerprint == store.fingerprint(.B) && store.linkResults[late] == nil, "landed before the link's answer")
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts(where: { switch $0 {
            case .linkResolved, .staleResultRefused, .attributionChanged, .callResolved: true
            default: false
        } }, [
            "linkResolved job #4 to https://shop.sim.test/x1, campaign 41 template 42 message \"x1\"",
            "staleResultRefused #4 resolution of link https://links.sim.test/a/x1: started in generation 1, now 2",
            "callResolved 00000003 failed: rejected: the link resolved after the instance that asked for it was replaced (generation 1, now 2); its attribution was not applied",
        ])
        #expect(store.linkResults[late]?.destination == nil, "a refused link leads nowhere")
        #expect(store.state.attribution == nil)
        store.call(.setAttribution(AttributionInfo(campaignID: 1, templateID: 2, messageID: "b-own")))
        store.settle()
        #expect(store.state.attribution?.messageID == "b-own", "the app's own write after the landing is accepted")
    }

    @Test("A -> B -> A: a resolution started by the first A instance is refused by the second, though A is live again")
    func generationsNotProjects() {
        let store = Self.onA(linkMilliseconds: 1_000)
        let late = store.handleUniversalLink(Self.link)
        store.switchProject(to: .B)
        store.switchProject(to: .A)
        store.advance(byMilliseconds: 500)
        #expect(store.state.live?.fingerprint == store.fingerprint(.A) && store.state.generation == 3 && store.linkResults[late] == nil)
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts(where: { if case .staleResultRefused = $0 { true } else { false } }, [
            "staleResultRefused #4 resolution of link https://links.sim.test/a/x1: started in generation 1, now 3",
        ])
        if case .failed = store.linkResults[late]?.outcome {} else { Issue.record("the first instance's late result was applied to the second") }
        #expect(store.state.attribution == nil)
    }

    @Test("in-app messages fetched by an instance that was replaced (A -> B -> A) are not stored in the new one")
    func lateFetchIsRefused() {
        var timing = EngineStore.Timing()
        timing.networkMilliseconds = 500          // the fetch's answer comes back after A -> B -> A landed
        let store = EdgesStoreTests.on(.A, timing: timing)
        store.call(.inAppFetch(count: 10))
        store.switchProject(to: .B)
        store.switchProject(to: .A)
        store.skipReceivedFacts()
        store.settle()
        store.expectFacts(where: { switch $0 {
            case .staleResultRefused, .messagesStored: true
            default: false
        } }, [
            "staleResultRefused #1 in-app messages fetched by t1: started in generation 1, now 3",
        ])
        #expect(store.state.generation == 3)
    }
}
